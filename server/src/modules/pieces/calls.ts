import type { Actor } from '../../auth/tokens';
import { requireWorkspace } from '../../auth/access';
import { badRequest, notFound } from '../../errors';
import type { Services } from '../../services';
import { API_CALL_TIMEOUT_MS, upstream } from '../connections/connection-test';
import type { ServerPieces } from './host';

/**
 * Piece calls made for the API, outside runs (docs/integrations.md): a dropdown's options or a
 * dynamic property's fields for the builder (and a connection's test, in
 * `connections/connection-test.ts`). Each is a piece call in the
 * worker pool with the step's connection; the piece's failure is a 502 UPSTREAM_ERROR with its
 * (masked) message.
 */

/** What `POST /automations/kinds/{type}/options` answers. */
export interface KindOptions {
  /** Dropdowns: the choices; `disabled` with a `placeholder` when the piece cannot list them yet (no connection, a refresher unset). */
  options?: { label: string; value: unknown }[];
  disabled?: boolean;
  placeholder?: string;
  /** Dynamic properties: their fields, described like the catalogue's. */
  props?: Record<string, unknown>;
}

/**
 * The options of property `prop` of the piece kind `type`, computed by the piece with the step's
 * connection and the values of the other properties (`props`) (Collaborators and Owners).
 * @throws ServiceError 404 for a type that is not a piece kind; 400 for a property without dynamic
 *   options or a connection of another piece; 403/404 from the workspace check; 502 when the piece fails.
 */
export async function kindOptions(
  svc: Services,
  pieces: ServerPieces,
  actor: Actor,
  input: { type: string; workspaceId: string; prop: string; connectionId?: string; props?: Record<string, unknown> },
): Promise<KindOptions> {
  await svc.store.run(requireWorkspace(svc.store.sql, actor, input.workspaceId, 'Collaborator', 'computing options'));
  const dot = input.type.indexOf('.');
  const piece = dot > 0 ? pieces.catalogue.find(input.type.slice(0, dot)) : undefined;
  const name = input.type.slice(dot + 1);
  const action = piece?.actions.find((a) => a.name === name) ?? piece?.triggers.find((t) => t.name === name);
  if (!piece || !action) throw notFound('piece kind', input.type);
  const prop = action.props[input.prop];
  if (!prop || !['DROPDOWN', 'MULTI_SELECT_DROPDOWN', 'DYNAMIC'].includes(prop.type))
    throw badRequest('prop', 'invalid_value', `${input.type} has no property '${input.prop}' with options computed by the piece`);
  try {
    const out = (await pieces.runner.call({
      piece,
      op: 'options',
      action: name,
      prop: input.prop,
      ...(input.connectionId ? { connectionId: input.connectionId } : {}),
      propsValue: input.props ?? {},
      context: { workspaceId: input.workspaceId },
      timeoutMs: API_CALL_TIMEOUT_MS,
    })) as Record<string, unknown> | null;
    const result: KindOptions = {};
    if (Array.isArray(out?.options))
      result.options = (out.options as { label?: unknown; value?: unknown }[]).map((o) => ({
        label: String(o.label ?? o.value),
        value: o.value ?? null,
      }));
    if (typeof out?.disabled === 'boolean') result.disabled = out.disabled;
    if (typeof out?.placeholder === 'string') result.placeholder = out.placeholder;
    if (out?.props && typeof out.props === 'object') result.props = out.props as Record<string, unknown>;
    return result;
  } catch (error) {
    upstream(error);
  }
}

/** Most items `POST /automations/kinds/{type}/sample` answers. */
export const SAMPLE_MAX_ITEMS = 10;

/** What `POST /automations/kinds/{type}/sample` answers. */
export interface KindSample {
  /** Items as the trigger's runs get them (`{{ trigger.* }}`), newest first, at most {@link SAMPLE_MAX_ITEMS}. */
  items: unknown[];
  /** `service`: the trigger's own test read them from its service with the connection; `sample`: the piece's declared `sampleData` (the trigger has no test). */
  source: 'service' | 'sample';
}

/**
 * Sample items of the piece trigger kind `type` (Activepieces' "Load data"): the trigger's `test`
 * called with the step's connection and properties — for most triggers the service's recent items —
 * with a piece store of its own that is dropped afterwards (the automation's deduplication state is
 * not touched), else the piece's `sampleData` (Collaborators and Owners).
 * @throws ServiceError 404 for a type that is not a piece trigger; 403/404 from the workspace
 *   check; 400 for a connection of another piece; 502 UPSTREAM_ERROR when the piece fails.
 */
export async function kindSample(
  svc: Services,
  pieces: ServerPieces,
  actor: Actor,
  input: { type: string; workspaceId: string; connectionId?: string; props?: Record<string, unknown> },
): Promise<KindSample> {
  await svc.store.run(requireWorkspace(svc.store.sql, actor, input.workspaceId, 'Collaborator', 'loading sample data'));
  const dot = input.type.indexOf('.');
  const piece = dot > 0 ? pieces.catalogue.find(input.type.slice(0, dot)) : undefined;
  const trigger = piece?.triggers.find((t) => t.name === input.type.slice(dot + 1));
  if (!piece || !trigger) throw notFound('piece trigger kind', input.type);
  const scratch = new Map<string, unknown>();
  try {
    const items = (await pieces.runner.call({
      piece,
      op: 'test',
      action: trigger.name,
      ...(input.connectionId ? { connectionId: input.connectionId } : {}),
      propsValue: input.props ?? {},
      context: { workspaceId: input.workspaceId },
      timeoutMs: API_CALL_TIMEOUT_MS,
      store: {
        get: async (scope, key) => scratch.get(`${scope}\n${key}`) ?? null,
        put: async (scope, key, value) => void scratch.set(`${scope}\n${key}`, value),
        delete: async (scope, key) => void scratch.delete(`${scope}\n${key}`),
      },
    })) as unknown[] | null;
    if (Array.isArray(items)) return { items: items.slice(0, SAMPLE_MAX_ITEMS), source: 'service' };
    return { items: trigger.sampleData ? [trigger.sampleData] : [], source: 'sample' };
  } catch (error) {
    upstream(error);
  }
}
