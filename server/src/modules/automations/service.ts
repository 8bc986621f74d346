import { redactActions, type AutomationDefinition, type AutomationRecord } from '@taskspace/engine';
import { requireFirstPartyCredential, requireWorkspace } from '../../auth/access';
import type { Role } from '../../auth/roles';
import type { Actor } from '../../auth/tokens';
import { isoTime } from '../../platform/clock';
import type { Query, Sql } from '../../platform/db/query';
import { hasInboundUrl, inboundLinkOf, newInboundLink, newInboundToken, wantsToken } from '../engine-host/inbound-link';
import { markOAuthOrigin, requireFirstPartyForInbound } from '../../auth/oauth-origin';
import { requireWebhookPlan } from '../webhooks/service';
import { fromEngineError } from '../../http/engine-errors';
import { checkReferences } from './references';
import { checkToolName } from './tool-names';
import { requiredVersion, withSave, type VersionSave } from '../engine-host/version-save';
import { newId } from '../../platform/ids';
import type { Services } from '../../services';
import type { AutomationRuntime } from '../engine-host/runtime';
import { engineCall, requireAutomation } from '../engine-host/automation-access';

export { requireAutomation } from '../engine-host/automation-access';
export {
  cancelRun,
  decideRun,
  getRun,
  listRuns,
  requireRun,
  runItem,
  testRun,
  TEST_RUN_WAIT_MS,
  type RunItem,
  type RunListQuery,
  type StepItem,
} from '../runs/service';

/**
 * Automation management (README "Automations", "API"): the domain functions behind
 * `/api/v1/automations`. Owner of the workspace manages (create, update, enable, disable,
 * delete, test, cancel); any member reads automations and runs; approvals are decided by the
 * approval's listed approvers (members) or, without a list, by members with the Participant
 * role or above. Resources outside the caller's workspaces are 404. The run functions live in
 * `runs/service.ts` and the shared access checks in `engine-host/automation-access.ts` (a layer
 * below, so that `runs` never imports `automations`); both are re-exported here.
 */

/** The inbound URL of a webhook-triggered automation (shown to the Owner only). */
export interface AutomationWebhook {
  id: string;
  url: string;
  requiresToken: boolean;
  /** The bearer token, only in the response that generated it. */
  token?: string;
  /** For a form trigger: the hosted form page to share (`/forms/<id>`; add `?token=` when a token is required). */
  formUrl?: string;
}

/** An automation as the API returns it. */
export interface AutomationItem extends AutomationDefinition {
  id: string;
  workspaceId: string;
  enabled: boolean;
  version: number;
  /** The member the automation acts as (its creator). */
  owner: { handle: string };
  createdAt: string;
  updatedAt: string;
  webhook?: AutomationWebhook;
  /**
   * For readers other than the workspace Owner: the paths of credential values hidden as
   * `[redacted]` (header, query, form and JSON body fields with credential names; docs
   * "Automations"). Absent when nothing was hidden. Move such values into secrets.
   */
  redacted?: string[];
}

/** Create input: the definition plus where it lives. */
export interface AutomationInput {
  workspaceId: string;
  enabled?: boolean;
  definition: unknown;
  /** The message of version 1 (docs "Versions"). */
  message?: string;
}

/** The handle of a user ('' when the user is gone). */
function* handleOf(q: Sql, userId: string): Query<string> {
  return (yield* q.get<{ handle: string }>('SELECT handle FROM users WHERE id = ?', [userId]))?.handle ?? '';
}

/** The API item of an automation for a reader with `role` (its owner's handle read through `q`). */
function* toItem(q: Sql, svc: Services, actor: Actor, role: Role, a: AutomationRecord, token?: string): Query<AutomationItem> {
  return itemOf(svc, role, a, yield* handleOf(q, a.ownerId), token);
}

/** The API items of automations, as {@link toItem}, reading each owner's handle once. */
function* toItems(q: Sql, svc: Services, actor: Actor, role: Role, automations: AutomationRecord[]): Query<AutomationItem[]> {
  const handles = new Map<string, string>();
  const items: AutomationItem[] = [];
  for (const a of automations) {
    let handle = handles.get(a.ownerId);
    if (handle === undefined) {
      handle = yield* handleOf(q, a.ownerId);
      handles.set(a.ownerId, handle);
    }
    items.push(itemOf(svc, role, a, handle));
  }
  return items;
}

function itemOf(svc: Services, role: Role, a: AutomationRecord, ownerHandle: string, token?: string): AutomationItem {
  const item: AutomationItem = {
    id: a.id,
    workspaceId: a.workspaceId,
    ...a.definition,
    enabled: a.enabled,
    version: a.version,
    owner: { handle: ownerHandle },
    createdAt: isoTime(a.createdAt),
    updatedAt: isoTime(a.updatedAt),
  };
  if (role !== 'Owner') {
    const { actions, redacted } = redactActions(item.actions);
    item.actions = actions;
    if (redacted.length > 0) item.redacted = redacted;
  }
  const link = inboundLinkOf(a);
  if (link && role === 'Owner') {
    item.webhook = { id: link.id, url: svc.links.url('/webhooks/' + link.id), requiresToken: link.tokenHash !== null };
    if (token !== undefined) item.webhook.token = token;
    if (a.definition.trigger.type === 'form') item.webhook.formUrl = svc.links.url('/forms/' + link.id);
  }
  return item;
}

/** The details of a save by `actor` (docs "Versions"). */
function saveBy(actor: Actor, message: string | undefined): VersionSave {
  const save: VersionSave = { authorId: actor.userId };
  if (message !== undefined && message !== '') save.message = message;
  return save;
}

/**
 * Refuses a piece's webhook trigger (`source: 'piece-webhook'`: a public hook URL of ours that
 * the piece registers at its service) to whoever may not open an inbound URL, as webhook and form
 * triggers are refused: an OAuth access token (403, docs/oauth.md "Threat model") on every save,
 * and, when the trigger becomes one (`before` is another type or absent), an account below Pro or
 * unverified (402 PAYMENT_REQUIRED, spec §7.4).
 * @throws ServiceError 402, 403
 */
function requirePieceHookRights(
  rt: AutomationRuntime,
  actor: Actor,
  trigger: { type: string },
  action: string,
  before?: { type: string },
): void {
  if (rt.engine.kinds.trigger(trigger.type)?.source !== 'piece-webhook') return;
  requireFirstPartyCredential(actor, `${action} with a ${trigger.type} trigger (a piece webhook URL)`);
  if (before?.type !== trigger.type) requireWebhookPlan(actor);
}

function validate(rt: AutomationRuntime, definition: unknown): AutomationDefinition {
  try {
    return rt.engine.validate(definition);
  } catch (error) {
    throw fromEngineError(error);
  }
}

/**
 * Creates an automation (Owner). A webhook or form trigger also gets its inbound URL (Pro+
 * verified account, else 402) and, with `requireToken`, a bearer token returned only here; the
 * automation and its URL are stored in one transaction. Inbound triggers need a first-party
 * credential; an automation made through an OAuth grant records it (`oauth-origin.ts`).
 * @throws ServiceError 400 (invalid definition: details name the field), 402, 403, 404.
 */
export async function createAutomation(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  input: AutomationInput,
): Promise<AutomationItem> {
  const q = svc.store.sql;
  await svc.store.run(requireWorkspace(q, actor, input.workspaceId, 'Owner', 'creating an automation'));
  const definition = validate(rt, input.definition);
  requireFirstPartyForInbound(actor, definition.trigger, 'creating an automation');
  requirePieceHookRights(rt, actor, definition.trigger, 'creating an automation');
  await svc.store.run(checkReferences(q, svc, rt.engine.kinds, input.workspaceId, definition));
  await svc.store.run(checkToolName(q, input.workspaceId, definition));
  const meta = withSave(markOAuthOrigin({}, actor), saveBy(actor, input.message));
  let token: string | undefined;
  if (hasInboundUrl(definition.trigger)) {
    requireWebhookPlan(actor);
    const made = newInboundLink(wantsToken(definition.trigger), svc.clock.now());
    meta.inbound = made.link;
    token = made.token;
  }
  const created = await engineCall(() =>
    rt.engine.createAutomation({
      id: newId(),
      workspaceId: input.workspaceId,
      ownerId: actor.userId,
      definition,
      enabled: input.enabled ?? true,
      meta,
    }),
  );
  await rt.hooks.sync(created.id);
  return svc.store.run(toItem(q, svc, actor, 'Owner', created, token));
}

/** A workspace's automations, oldest first (any member). @throws ServiceError 404. */
export async function listAutomations(svc: Services, rt: AutomationRuntime, actor: Actor, workspaceId: string): Promise<AutomationItem[]> {
  const role = await svc.store.run(requireWorkspace(svc.store.sql, actor, workspaceId, 'Viewer', 'listing automations'));
  const automations = await rt.engine.listAutomations(workspaceId);
  return svc.store.run(toItems(svc.store.sql, svc, actor, role, automations));
}

/** One automation (any member; the webhook URL only for the Owner). @throws ServiceError 404. */
export async function getAutomation(svc: Services, rt: AutomationRuntime, actor: Actor, id: string): Promise<AutomationItem> {
  const { automation, role } = await requireAutomation(svc, rt, actor, id, 'Viewer', 'reading an automation');
  return svc.store.run(toItem(svc.store.sql, svc, actor, role, automation));
}

/**
 * Replaces the definition with a new version (Owner); runs in progress keep their version.
 * Switching to a webhook or form trigger creates the inbound URL (Pro+ verified, else 402),
 * switching away deletes it; switching `requireToken` on generates a token (returned only here;
 * Pro+ verified), off removes it. The new version and its URL are stored in one transaction.
 * Inbound triggers need a first-party credential; the OAuth origin follows the credential.
 * The version records `actor` as its author and `opts.message`; with `opts.ifMatch` (the
 * `If-Match` header) the save applies only while the automation is at that ETag's version.
 * @throws ServiceError 400, 402, 403, 404, 412 PRECONDITION_FAILED (stale `If-Match`).
 */
export async function updateAutomation(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  id: string,
  input: unknown,
  opts: { message?: string; ifMatch?: string } = {},
): Promise<AutomationItem> {
  const { automation } = await requireAutomation(svc, rt, actor, id, 'Owner', 'changing an automation');
  const save = saveBy(actor, opts.message);
  const ifVersion = requiredVersion(opts.ifMatch, automation.version);
  if (ifVersion !== undefined) save.ifVersion = ifVersion;
  const definition = validate(rt, input);
  requireFirstPartyForInbound(actor, definition.trigger, 'saving an automation');
  requirePieceHookRights(rt, actor, definition.trigger, 'saving an automation', automation.definition.trigger);
  await svc.store.run(checkReferences(svc.store.sql, svc, rt.engine.kinds, automation.workspaceId, definition));
  await svc.store.run(checkToolName(svc.store.sql, automation.workspaceId, definition, id));
  const meta = withSave(markOAuthOrigin({ ...automation.meta }, actor), save);
  const link = inboundLinkOf(automation);
  let token: string | undefined;
  if (!hasInboundUrl(definition.trigger)) {
    delete meta.inbound;
  } else if (!link) {
    requireWebhookPlan(actor);
    const made = newInboundLink(wantsToken(definition.trigger), svc.clock.now());
    meta.inbound = made.link;
    token = made.token;
  } else if (wantsToken(definition.trigger) !== (link.tokenHash !== null)) {
    if (wantsToken(definition.trigger)) {
      requireWebhookPlan(actor);
      const fresh = newInboundToken();
      meta.inbound = { ...link, tokenHash: fresh.tokenHash };
      token = fresh.token;
    } else {
      meta.inbound = { ...link, tokenHash: null };
    }
  }
  const updated = await engineCall(() => rt.engine.updateAutomation(id, definition, meta));
  await rt.hooks.sync(id);
  return svc.store.run(toItem(svc.store.sql, svc, actor, 'Owner', updated, token));
}

/**
 * Enables or disables an automation (Owner). Disabling cancels its queued and waiting runs.
 * Enabling one with an inbound URL needs a first-party credential.
 * @throws ServiceError 403, 404.
 */
export async function setAutomationEnabled(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  id: string,
  enabled: boolean,
): Promise<AutomationItem> {
  const { automation } = await requireAutomation(
    svc,
    rt,
    actor,
    id,
    'Owner',
    enabled ? 'enabling an automation' : 'disabling an automation',
  );
  if (enabled) requireFirstPartyForInbound(actor, automation.definition.trigger, 'enabling an automation');
  const updated = await engineCall(() => rt.engine.setEnabled(id, enabled));
  await rt.hooks.sync(id);
  return svc.store.run(toItem(svc.store.sql, svc, actor, 'Owner', updated));
}

/** Deletes an automation with its runs and inbound URL (Owner). @throws ServiceError 403, 404. */
export async function deleteAutomation(svc: Services, rt: AutomationRuntime, actor: Actor, id: string): Promise<void> {
  await requireAutomation(svc, rt, actor, id, 'Owner', 'deleting an automation');
  await engineCall(() => rt.engine.deleteAutomation(id));
  await rt.hooks.sync(id);
}
