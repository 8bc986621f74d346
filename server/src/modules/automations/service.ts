import {
  FINAL_STATUSES,
  redactActions,
  type ApprovalInput,
  type AutomationDefinition,
  type AutomationRecord,
  type RunRecord,
  type RunStatus,
  type StepRecord,
} from '@taskspace/engine';
import { requireWorkspace } from '../../auth/access';
import { roleAtLeast, type Role } from '../../auth/roles';
import type { Actor } from '../../auth/tokens';
import { isoTime } from '../../platform/clock';
import type { Query, Sql } from '../../platform/db/query';
import { runIdOfInboundRequest } from './inbound';
import { hasInboundUrl, inboundLinkOf, newInboundLink, newInboundToken, wantsToken } from './inbound-link';
import { markOAuthOrigin, requireFirstPartyForInbound } from './oauth-origin';
import { requireWebhookPlan } from '../webhooks/service';
import { forbidden, notFound, ServiceError } from '../../errors';
import { fromEngineError } from './engine-errors';
import { checkReferences } from './references';
import { requiredVersion, withSave, type VersionSave } from './version-save';
import { replayOfRun } from './replays';
import { newId } from '../../platform/ids';
import type { Services } from '../../services';
import type { AutomationRuntime } from './runtime';

/**
 * Automation management (README "Automations", "API"): the domain functions behind
 * `/api/v1/automations`. Owner of the workspace manages (create, update, enable, disable,
 * delete, test, cancel); any member reads automations and runs; approvals are decided by the
 * approval's listed approvers (members) or, without a list, by members with the Participant
 * role or above. Resources outside the caller's workspaces are 404.
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

/** A journalled step as the API returns it. Times ISO 8601, durations in ms. */
export interface StepItem {
  id: string;
  type: string;
  status: StepRecord['status'];
  input?: unknown;
  output?: unknown;
  error?: StepRecord['error'];
  attempts: number;
  startedAt: string;
  finishedAt?: string;
  durationMs?: number;
  nextAttemptAt?: string;
}

/** A run as the API returns it (`steps` only on a single run). */
export interface RunItem {
  id: string;
  automationId: string;
  version: number;
  status: RunStatus;
  test: boolean;
  depth: number;
  trigger: RunRecord['trigger'];
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  /** When a waiting run continues (delay end, retry, approval timeout). */
  wakeAt?: string;
  waitingFor?: RunRecord['waitingOn'];
  error?: RunRecord['error'];
  /** The run this one replays. */
  replayOf?: string;
  /** The run that replays this one (single-run reads only). */
  replayedBy?: string;
  steps?: StepItem[];
}

/** Create input: the definition plus where it lives. */
export interface AutomationInput {
  workspaceId: string;
  enabled?: boolean;
  definition: unknown;
  /** The message of version 1 (docs "Versions"). */
  message?: string;
}

/** Maps an engine error to the service's error envelope. */

async function engineCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw fromEngineError(error);
  }
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

/** The automation and the caller's role in its workspace. @throws ServiceError 404 (unknown or not a member), 403. */
export async function requireAutomation(svc: Services, rt: AutomationRuntime, actor: Actor, id: string, min: Role, action: string) {
  const automation = await rt.engine.getAutomation(id);
  if (!automation) throw notFound('automation', id);
  let role: Role;
  try {
    role = await svc.store.run(requireWorkspace(svc.store.sql, actor, automation.workspaceId, min, action));
  } catch (error) {
    if (error instanceof ServiceError && error.statusCode === 404) throw notFound('automation', id);
    throw error;
  }
  return { automation, role };
}

/** The details of a save by `actor` (docs "Versions"). */
function saveBy(actor: Actor, message: string | undefined): VersionSave {
  const save: VersionSave = { authorId: actor.userId };
  if (message !== undefined && message !== '') save.message = message;
  return save;
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
  await svc.store.run(checkReferences(q, svc, input.workspaceId, definition));
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
  await svc.store.run(checkReferences(svc.store.sql, svc, automation.workspaceId, definition));
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
  return svc.store.run(toItem(svc.store.sql, svc, actor, 'Owner', updated));
}

/** Deletes an automation with its runs and inbound URL (Owner). @throws ServiceError 403, 404. */
export async function deleteAutomation(svc: Services, rt: AutomationRuntime, actor: Actor, id: string): Promise<void> {
  await requireAutomation(svc, rt, actor, id, 'Owner', 'deleting an automation');
  await engineCall(() => rt.engine.deleteAutomation(id));
}

function iso(ms: number | undefined): string | undefined {
  return ms === undefined ? undefined : isoTime(ms);
}

function stepItem(s: StepRecord): StepItem {
  const item: StepItem = { id: s.stepId, type: s.type, status: s.status, attempts: s.attempts, startedAt: isoTime(s.startedAt) };
  if (s.input !== undefined) item.input = s.input;
  if (s.output !== undefined) item.output = s.output;
  if (s.error !== undefined) item.error = s.error;
  if (s.finishedAt !== undefined) item.finishedAt = isoTime(s.finishedAt);
  if (s.durationMs !== undefined) item.durationMs = s.durationMs;
  if (s.nextAttemptAt !== undefined) item.nextAttemptAt = isoTime(s.nextAttemptAt);
  return item;
}

/** The API item of a run (with its steps when given). */
export function runItem(run: RunRecord, steps?: StepRecord[]): RunItem {
  const item: RunItem = {
    id: run.id,
    automationId: run.automationId,
    version: run.version,
    status: run.status,
    test: run.test,
    depth: run.depth,
    trigger: run.trigger,
    createdAt: isoTime(run.createdAt),
  };
  const optional: Partial<RunItem> = {
    startedAt: iso(run.startedAt),
    finishedAt: iso(run.finishedAt),
    wakeAt: iso(run.wakeAt),
    waitingFor: run.waitingOn,
    error: run.error,
    replayOf: run.replayOf,
  };
  for (const [k, v] of Object.entries(optional)) if (v !== undefined) (item as unknown as Record<string, unknown>)[k] = v;
  if (steps) item.steps = steps.map(stepItem);
  return item;
}

/** Query of {@link listRuns}. */
export interface RunListQuery {
  status?: RunStatus;
  /** 1..100 (default 20). */
  limit: number;
  /** Runs created before this run id (cursor). */
  before?: string;
  /** Only the run started by this inbound request (the `requestId` the webhook intake returned). */
  requestId?: string;
}

/** An automation's runs, newest first, without steps (any member). @throws ServiceError 404. */
export async function listRuns(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  automationId: string,
  query: RunListQuery,
): Promise<RunItem[]> {
  await requireAutomation(svc, rt, actor, automationId, 'Viewer', 'reading runs');
  if (query.requestId !== undefined) {
    const runId = await svc.store.run(runIdOfInboundRequest(svc.store.sql, automationId, query.requestId));
    const found = runId === undefined ? undefined : await rt.engine.getRun(runId);
    if (!found || (query.status !== undefined && found.run.status !== query.status)) return [];
    return [runItem(found.run)];
  }
  const q: Parameters<AutomationRuntime['engine']['listRuns']>[0] = { automationId, limit: query.limit };
  if (query.status !== undefined) q.status = query.status;
  if (query.before !== undefined) q.beforeRunId = query.before;
  return (await rt.engine.listRuns(q)).map((r) => runItem(r));
}

/** The run of an automation and the caller's role in its workspace. @throws ServiceError 404 (unknown run, automation or not a member), 403. */
export async function requireRun(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  automationId: string,
  runId: string,
  min: Role,
  action: string,
) {
  const { role } = await requireAutomation(svc, rt, actor, automationId, min, action);
  const found = await rt.engine.getRun(runId);
  if (!found || found.run.automationId !== automationId) throw notFound('run', runId);
  return { ...found, role };
}

/** One run with every step's input, output, error, attempts and duration (any member). @throws ServiceError 404. */
export async function getRun(svc: Services, rt: AutomationRuntime, actor: Actor, automationId: string, runId: string): Promise<RunItem> {
  const { run, steps } = await requireRun(svc, rt, actor, automationId, runId, 'Viewer', 'reading a run');
  const item = runItem(run, steps);
  const replayedBy = await svc.store.run(replayOfRun(svc.store.sql, runId));
  if (replayedBy !== undefined) item.replayedBy = replayedBy;
  return item;
}

/**
 * Approves or rejects the approval a run waits on. Allowed: the approval's listed approvers
 * (members of the workspace), or, without a list, members with the Participant role or above.
 * @throws ServiceError 404, 403, 409 (the run does not wait for an approval).
 */
export async function decideRun(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  automationId: string,
  runId: string,
  approve: boolean,
  comment?: string,
): Promise<RunItem> {
  const { run, steps, role } = await requireRun(svc, rt, actor, automationId, runId, 'Viewer', 'deciding an approval');
  const waiting = run.waitingOn?.kind === 'approval' ? steps.find((s) => s.stepId === run.waitingOn!.stepId) : undefined;
  const approvers = (waiting?.input as ApprovalInput | undefined)?.approvers ?? [];
  if (waiting && approvers.length === 0 && !roleAtLeast(role, 'Participant')) {
    throw forbidden('deciding an approval needs the Participant role or above');
  }
  await engineCall(() => rt.engine.decide(runId, approve, { handle: actor.handle }, comment));
  const settled = await rt.engine.waitForRun(runId, 5000);
  return runItem(settled, (await rt.engine.getRun(runId))?.steps);
}

/** Cancels a run that has not finished (Owner). @throws ServiceError 403, 404. */
export async function cancelRun(svc: Services, rt: AutomationRuntime, actor: Actor, automationId: string, runId: string): Promise<RunItem> {
  await requireRun(svc, rt, actor, automationId, runId, 'Owner', 'cancelling a run');
  const run = await engineCall(() => rt.engine.cancelRun(runId));
  return runItem(run);
}

/** Longest time a test run request waits for the run to settle, in ms. */
export const TEST_RUN_WAIT_MS = 10_000;

/**
 * Starts a test run with a sample trigger payload (Owner), also while disabled: its actions
 * run for real. Waits up to {@link TEST_RUN_WAIT_MS} for the run to settle (finish or wait) and
 * returns it with its steps.
 * @throws ServiceError 403, 404.
 */
export async function testRun(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  automationId: string,
  payload: Record<string, unknown>,
): Promise<RunItem> {
  await requireAutomation(svc, rt, actor, automationId, 'Owner', 'test-running an automation');
  const run = await engineCall(() => rt.engine.startRun(automationId, payload, { test: true }));
  const settled = FINAL_STATUSES.has(run.status) ? run : await rt.engine.waitForRun(run.id, TEST_RUN_WAIT_MS);
  return runItem(settled, (await rt.engine.getRun(run.id))?.steps);
}
