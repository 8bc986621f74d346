import { FINAL_STATUSES, type RunLease, type RunQuery, type RunRecord, type StepRecord } from '@taskspace/engine';
import type { Query, Sql } from '../../platform/db/query';
import { json, RUN_COLUMNS, toRun, type RunRow } from './run-rows';
import type { RunTransitionHook } from './run-transition-hook';
import { stepsStatement, writeSteps } from './run-steps';

/**
 * The run store's statements on runs (`automation_runs`): reads, the insert and field updates.
 * Each is a {@link Query} run through the `q` it is given: the store's connection, or the caller's
 * transaction.
 */

/** The run of an id. */
export function* runById(q: Sql, id: string): Query<RunRecord | undefined> {
  const row = yield* q.get<RunRow>(`SELECT ${RUN_COLUMNS} FROM automation_runs WHERE id = ?`, [id]);
  return row ? toRun(row) : undefined;
}

/** The runs a query text of {@link RUN_COLUMNS} selects, with `params`. */
function* runsOf(q: Sql, text: string, params: unknown[]): Query<RunRecord[]> {
  return (yield* q.all<RunRow>(text, params)).map(toRun);
}

/** The runs matching `query` (`RunStore.listRuns`), newest first. */
export function* runsMatching(q: Sql, query: RunQuery): Query<RunRecord[]> {
  const where: string[] = [];
  const args: unknown[] = [];
  if (query.workspaceId !== undefined) {
    where.push('workspace_id = ?');
    args.push(query.workspaceId);
  }
  if (query.automationId !== undefined) {
    where.push('automation_id = ?');
    args.push(query.automationId);
  }
  if (query.status !== undefined) {
    where.push('status = ?');
    args.push(query.status);
  }
  if (query.beforeRunId !== undefined) {
    where.push('seq < COALESCE((SELECT seq FROM automation_runs WHERE id = ?), -1)');
    args.push(query.beforeRunId);
  }
  if (query.createdFrom !== undefined) {
    where.push('created_at >= ?');
    args.push(query.createdFrom);
  }
  if (query.createdBefore !== undefined) {
    where.push('created_at < ?');
    args.push(query.createdBefore);
  }
  const text = `SELECT ${RUN_COLUMNS} FROM automation_runs ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY seq DESC LIMIT ?`;
  return yield* runsOf(q, text, [...args, query.limit]);
}

/** An automation's queued and waiting runs, oldest first. */
export function* pendingRunsOf(q: Sql, automationId: string): Query<RunRecord[]> {
  return yield* runsOf(
    q,
    `SELECT ${RUN_COLUMNS} FROM automation_runs WHERE automation_id = ? AND status IN ('queued', 'waiting') ORDER BY seq`,
    [automationId],
  );
}

/** The smallest `wake_at` after `after` among waiting runs. */
export function* nextWake(q: Sql, after: number): Query<number | undefined> {
  const row = yield* q.get<{ next_wake: number | null }>(
    "SELECT MIN(wake_at) AS next_wake FROM automation_runs WHERE status = 'waiting' AND wake_at > ?",
    [after],
  );
  return row?.next_wake ?? undefined;
}

/** The ids of the unfinished runs whose cancellation was requested, oldest first. */
export function* cancelRequestsOf(q: Sql): Query<string[]> {
  const rows = yield* q.all<{ id: string }>(
    "SELECT id FROM automation_runs WHERE cancel_requested = 1 AND status IN ('queued', 'running', 'waiting') ORDER BY seq",
  );
  return rows.map((row) => row.id);
}

/**
 * Stores a new run (`RunStore.createRun` semantics, without journal entries) through `q`, inside
 * the caller's transaction: with `dedupe`, a run of the same automation with the same `dedupeKey`
 * created at or after `dedupe.since` (ms epoch) is returned instead (`created: false`). With
 * `lease`, the new run is claimed by that engine as it is stored. The inbound intake calls it in the
 * transaction that accepts a call, so an acknowledged call always has its run.
 */
export function* insertRun(
  q: Sql,
  run: RunRecord,
  dedupe?: { since: number },
  lease?: RunLease,
): Query<{ run: RunRecord; created: boolean }> {
  if (dedupe && run.dedupeKey !== undefined) {
    const existing = yield* q.get<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM automation_runs WHERE automation_id = ? AND dedupe_key = ? AND created_at >= ? ORDER BY seq LIMIT 1`,
      [run.automationId, run.dedupeKey, dedupe.since],
    );
    if (existing) return { run: toRun(existing), created: false };
  }
  yield* q.run(
    `INSERT INTO automation_runs (id, automation_id, version, workspace_id, owner_id, status, trigger_json, depth, test, dedupe_key,
                                  replay_of, created_at, started_at, finished_at, wake_at, waiting_json, error_json, lease_owner, lease_until)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      run.id,
      run.automationId,
      run.version,
      run.workspaceId,
      run.ownerId,
      run.status,
      JSON.stringify(run.trigger),
      run.depth,
      run.test ? 1 : 0,
      run.dedupeKey ?? null,
      run.replayOf ?? null,
      run.createdAt,
      run.startedAt ?? null,
      run.finishedAt ?? null,
      run.wakeAt ?? null,
      json(run.waitingOn),
      json(run.error),
      lease?.owner ?? null,
      lease?.until ?? null,
    ],
  );
  return { run, created: true };
}

/** Run fields and their columns, for partial updates. */
const RUN_PATCH: Readonly<Record<string, readonly [column: string, encode: (v: unknown) => unknown]>> = {
  status: ['status', (v) => v],
  startedAt: ['started_at', (v) => v ?? null],
  finishedAt: ['finished_at', (v) => v ?? null],
  wakeAt: ['wake_at', (v) => v ?? null],
  waitingOn: ['waiting_json', json],
  error: ['error_json', json],
};

/** Final statuses: reaching one drops the run's effects ledger (only needed while it runs). */
const FINAL: ReadonlySet<string> = FINAL_STATUSES;

/**
 * Writes a run's changed fields (`RunStore.updateRun`; fields without a column are ignored), and
 * with them the journal entries `steps` (`RunStore.updateRunWithSteps`), through `q`. Reaching a
 * final status also drops the run's effects ledger, in the same statement or transaction. A write
 * the `hook` observes ({@link RunTransitionHook.observes}) is one transaction: the run as it was,
 * the steps, the write, then the hook's own writes; any other is one statement on PostgreSQL (the
 * steps' upsert and the ledger's `DELETE` in a `WITH`) and where it can be on SQLite (which has no
 * DML in `WITH`: a transaction when there are steps or the status is final).
 * @returns `undefined` when nothing was written (no stored field, no step), else whether the hook wrote anything.
 */
export function* updateRunFields(
  q: Sql,
  hook: RunTransitionHook | undefined,
  id: string,
  patch: Partial<RunRecord>,
  steps: readonly StepRecord[] = [],
): Query<boolean | undefined> {
  const sets: string[] = [];
  const args: unknown[] = [];
  for (const key of Object.keys(patch)) {
    const mapped = RUN_PATCH[key];
    if (!mapped) continue;
    sets.push(`${mapped[0]} = ?`);
    args.push(mapped[1]((patch as Record<string, unknown>)[key]));
  }
  if (sets.length === 0) {
    if (steps.length === 0) return undefined;
    yield* writeSteps(q, steps);
    return false;
  }
  const text = `UPDATE automation_runs SET ${sets.join(', ')} WHERE id = ?`;
  const final = patch.status !== undefined && FINAL.has(patch.status);
  if (hook?.observes(patch)) {
    return yield* q.transaction(function* (tx) {
      const before = yield* runById(tx, id);
      yield* writeSteps(tx, steps);
      yield* tx.run(text, [...args, id]);
      if (final) yield* tx.run('DELETE FROM automation_effects WHERE run_id = ?', [id]);
      return yield* hook.onRunWritten(tx, { runId: id, before, patch });
    });
  }
  if (q.dialect === 'postgres' && (final || steps.length > 0)) {
    // One statement (the data-modifying parts of a WITH run in the same statement, so all or none
    // happen) instead of a transaction of several round trips.
    const parts: string[] = [];
    const first: unknown[] = [];
    if (steps.length > 0) {
      const written = stepsStatement(steps);
      parts.push(`journal AS (${written.text})`);
      first.push(...written.args);
    }
    if (final) {
      parts.push('dropped AS (DELETE FROM automation_effects WHERE run_id = ?)');
      first.push(id);
    }
    yield* q.run(`WITH ${parts.join(', ')} ${text}`, [...first, ...args, id]);
  } else if (!final && steps.length === 0) {
    yield* q.run(text, [...args, id]);
  } else {
    yield* q.transaction(function* (tx) {
      yield* writeSteps(tx, steps);
      yield* tx.run(text, [...args, id]);
      if (final) yield* tx.run('DELETE FROM automation_effects WHERE run_id = ?', [id]);
    });
  }
  return false;
}
