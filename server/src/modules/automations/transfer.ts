import { REDACTED, redactActions, type AutomationDefinition } from '@taskspace/engine';
import { ServiceError } from '../../errors';
import { requireWorkspace } from '../../auth/access';
import { isoTime } from '../../platform/clock';
import type { Actor } from '../../auth/tokens';
import type { Services } from '../../services';
import type { AutomationRuntime } from '../engine-host/runtime';
import { createAutomation, requireAutomation, type AutomationItem } from './service';

/**
 * Moving an automation between workspaces or servers as a JSON file (docs/automations.md
 * "Export and import"): the definition alone, with a format marker, never the workspace-bound
 * parts (ids, owner, inbound URL, its token, versions, runs) nor a literal credential.
 */

/** The format marker's current value: `{"taskspaceAutomation": 1, …}`. */
export const TRANSFER_FORMAT = 1;

/** An exported automation (docs "Export and import"). */
export interface AutomationDocument {
  /** Format marker, {@link TRANSFER_FORMAT}. */
  taskspaceAutomation: typeof TRANSFER_FORMAT;
  /** When the document was made, ISO 8601. */
  exportedAt: string;
  /** The definition as the create route takes it (`name`, `trigger`, `actions`, …). */
  definition: AutomationDefinition;
  /**
   * Paths (in `definition`) of literal credential values replaced by `[redacted]`; absent when
   * none. Such a document is refused on import until each is replaced (by `{{ secrets.NAME }}`).
   */
  redacted?: string[];
}

/** The definition fields an export carries, in this order. */
const DEFINITION_FIELDS = ['name', 'description', 'trigger', 'actions', 'timeoutMs', 'concurrency', 'retention'] as const;

/**
 * The portable document of one automation (any member, as reading it). Literal credentials of
 * HTTP Request steps are always replaced by `[redacted]` (also for the Owner): a file leaves the
 * service, a `{{ secrets.NAME }}` reference stays.
 * @throws ServiceError 404 (unknown automation or not a member).
 */
export async function exportAutomation(svc: Services, rt: AutomationRuntime, actor: Actor, id: string): Promise<AutomationDocument> {
  const { automation } = await requireAutomation(svc, rt, actor, id, 'Viewer', 'exporting an automation');
  const source = automation.definition as unknown as Record<string, unknown>;
  const definition: Record<string, unknown> = {};
  for (const field of DEFINITION_FIELDS) if (source[field] !== undefined) definition[field] = source[field];
  const { actions, redacted } = redactActions(automation.definition.actions);
  definition.actions = actions;
  const document: AutomationDocument = {
    taskspaceAutomation: TRANSFER_FORMAT,
    exportedAt: isoTime(svc.clock.now()),
    definition: definition as unknown as AutomationDefinition,
  };
  if (redacted.length > 0) document.redacted = redacted;
  return document;
}

/** Import input: where the new automation goes and the document. */
export interface ImportInput {
  workspaceId: string;
  document: { taskspaceAutomation: number; definition: Record<string, unknown> };
  /** Default false: an imported automation starts disabled. */
  enabled?: boolean;
  /** Replaces the document's `name` (e.g. "… (copy)"). */
  name?: string;
}

/** The path of the first string equal to `[redacted]` under `value`, or undefined. */
function redactedPath(value: unknown, path: string): string | undefined {
  if (value === REDACTED) return path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = redactedPath(value[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const found = redactedPath(v, `${path}.${k}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** `error` with its validation `field` placed under `prefix` (a path in the import body). */
function underPrefix(error: unknown, prefix: string): unknown {
  if (!(error instanceof ServiceError) || error.code !== 'VALIDATION_ERROR' || !error.details?.field) return error;
  const field = `${prefix}.${error.details.field}`;
  const message = error.message.startsWith(`${error.details.field}`) ? `${prefix}.${error.message}` : error.message;
  return new ServiceError(error.statusCode, error.code, message, { ...error.details, field });
}

/**
 * Creates a new automation from an exported document (Owner of `workspaceId`), disabled unless
 * `enabled` is true, through {@link createAutomation}: the same validation, reference checks,
 * plan rules and new inbound URL (with a new token when the trigger asks for one) as a create.
 * Validation errors name the field in the request body (`document.definition.actions[0].url`).
 * @throws ServiceError 400 (bad document: `reason: "redacted"` for a `[redacted]` value left in),
 *   402, 403, 404.
 */
export async function importAutomation(svc: Services, rt: AutomationRuntime, actor: Actor, input: ImportInput): Promise<AutomationItem> {
  await svc.store.run(requireWorkspace(svc.store.sql, actor, input.workspaceId, 'Owner', 'importing an automation'));
  const prefix = 'document.definition';
  const definition = { ...input.document.definition };
  if (input.name !== undefined) definition.name = input.name;
  const left = redactedPath(definition, prefix);
  if (left !== undefined) {
    throw new ServiceError(
      400,
      'VALIDATION_ERROR',
      `${left} is "${REDACTED}": replace it with the value or a {{ secrets.NAME }} reference before importing`,
      {
        field: left,
        reason: 'redacted',
      },
    );
  }
  try {
    return await createAutomation(svc, rt, actor, { workspaceId: input.workspaceId, definition, enabled: input.enabled ?? false });
  } catch (error) {
    throw underPrefix(error, prefix);
  }
}
