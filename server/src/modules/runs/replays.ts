import type { Actor } from '../../auth/tokens';
import type { Query, Sql } from '../../platform/db/query';
import { ServiceError } from '../../errors';
import type { Services } from '../../services';
import { fromEngineError } from '../../http/engine-errors';
import { timeFilter } from './run-filters';
import { replayOfRun } from './run-lookups';
import type { AutomationRuntime } from '../engine-host/runtime';
import { requireAutomation } from '../engine-host/automation-access';
import { requireRun, runItem, type RunItem } from './service';

/**
 * Replay (docs "Automations", "Replay"): a failed or cancelled run re-runs as a new run linked to
 * it (`automation_runs.replay_of`, shown as `replayOf` on the replay and `replayedBy` on the
 * original). A run is replayed at most once: a replay that fails again is replayed in its turn,
 * so retrying never multiplies runs. A replay starts from the failed step unless asked otherwise
 * (n8n's "retry from failed node"): the steps that succeeded keep their recorded outputs, so a
 * task the run made is not made again; `from: "start"` runs every step again.
 */

/** How a replay runs. */
export interface ReplayOptions {
  /** `failed-step` (default, {@link DEFAULT_REPLAY_FROM}): keep the steps that succeeded; `start`: every step again. */
  from?: 'start' | 'failed-step';
  /** `original` (default): the version the run executed; `current`: the automation's current version. */
  version?: 'original' | 'current';
}

/** Where a replay starts when the caller does not say: the failed step (what succeeded is not repeated). */
export const DEFAULT_REPLAY_FROM = 'failed-step' as const;

/** Most runs one bulk replay starts. */
export const MAX_BULK_REPLAY = 100;

/** The engine's replay of `runId` (from the failed step unless `options.from` says otherwise), its errors as the service's. */
async function replayOnce(rt: AutomationRuntime, runId: string, options: ReplayOptions): Promise<RunItem> {
  try {
    return runItem(await rt.engine.replayRun(runId, { ...options, from: options.from ?? DEFAULT_REPLAY_FROM }));
  } catch (error) {
    throw fromEngineError(error);
  }
}

/**
 * Replays a failed or cancelled run as a new run linked to it (Owner), from its failed step by
 * default. A run already replayed is
 * refused: replay its replay instead (named in the error's message).
 * @throws ServiceError 403, 404, 409 CONFLICT (the run did not fail and was not cancelled, or
 *   was already replayed: reason `already_replayed`).
 */
export async function replayRun(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  automationId: string,
  runId: string,
  options: ReplayOptions,
): Promise<RunItem> {
  await requireRun(svc, rt, actor, automationId, runId, 'Owner', 'replaying a run');
  const replay = await svc.store.run(replayOfRun(svc.store.sql, runId));
  if (replay !== undefined) {
    throw new ServiceError(409, 'CONFLICT', `run '${runId}' was already replayed by run '${replay}'; replay that run if it failed too`, {
      field: 'runId',
      reason: 'already_replayed',
    });
  }
  return replayOnce(rt, runId, options);
}

/** What a bulk replay takes (the body of `POST …/runs/replay`). */
export interface BulkReplayFilter extends ReplayOptions {
  status: 'failed' | 'cancelled';
  createdFrom?: string;
  createdBefore?: string;
  limit: number;
  /** Also replay runs that are themselves replays (default false: originals only). */
  includeReplays?: boolean;
}

/** The ids of the runs a bulk replay takes, newest first: never one already replayed. */
function* replaySources(q: Sql, automationId: string, filter: BulkReplayFilter, from?: number, before?: number): Query<string[]> {
  const where = ['r.automation_id = ?', 'r.status = ?', 'NOT EXISTS (SELECT 1 FROM automation_runs p WHERE p.replay_of = r.id)'];
  const args: unknown[] = [automationId, filter.status];
  if (!filter.includeReplays) where.push('r.replay_of IS NULL');
  if (from !== undefined) {
    where.push('r.created_at >= ?');
    args.push(from);
  }
  if (before !== undefined) {
    where.push('r.created_at < ?');
    args.push(before);
  }
  args.push(Math.min(filter.limit, MAX_BULK_REPLAY));
  const rows = yield* q.all<{ id: string }>(
    `SELECT r.id FROM automation_runs r WHERE ${where.join(' AND ')} ORDER BY r.seq DESC LIMIT ?`,
    args,
  );
  return rows.map((r) => r.id);
}

/**
 * Replays the newest failed (or cancelled) runs of an automation created in a time window, up to
 * `limit`, oldest first (Owner), each from its failed step unless `filter.from` is `start`;
 * returns the new runs. Runs already replayed are left out, and
 * so are replays unless `includeReplays`: repeating a bulk replay replays nothing twice.
 * @throws ServiceError 400 for a malformed time; 403, 404.
 */
export async function replayRuns(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  automationId: string,
  filter: BulkReplayFilter,
): Promise<RunItem[]> {
  await requireAutomation(svc, rt, actor, automationId, 'Owner', 'replaying runs');
  const from = timeFilter('createdFrom', filter.createdFrom);
  const before = timeFilter('createdBefore', filter.createdBefore);
  const sources = (await svc.store.run(replaySources(svc.store.sql, automationId, filter, from, before))).reverse();
  const replays: RunItem[] = [];
  for (const id of sources) replays.push(await replayOnce(rt, id, filter));
  return replays;
}
