import type { RunLease, RunRecord } from '@taskspace/engine';
import type { Query, Sql } from '../../platform/db/query';
import { ownerGone } from '../../platform/db/postgres/presence';
import { RUN_COLUMNS, toRun, type RunRow } from './run-rows';

/**
 * The run store's statements on run leases (`lease_owner`, `lease_until`): which engine executes
 * a run, until when (ms epoch). Each is one statement, a {@link Query} run through the `q` it is given.
 */

/** Runs whose leases one {@link renewLeaseBatch} statement extends, at most. */
export const LEASE_BATCH = 500;

/**
 * SQL condition, with one parameter (now, ms): the run's lease is free — none, one that ended
 * before now, or (PostgreSQL) one whose process is gone (postgres/presence.ts), so a process
 * killed with its runs claimed leaves them at once rather than when their leases run out.
 */
function freeLease(q: Sql): string {
  return q.dialect === 'postgres'
    ? `(lease_owner IS NULL OR lease_until < ? OR ${ownerGone('lease_owner')})`
    : '(lease_owner IS NULL OR lease_until < ?)';
}

/**
 * Claims up to `limit` runs matching `condition` (SQL after WHERE, from constants, with
 * `params`) whose lease is free ({@link freeLease}), in `order`: they get `lease`. On PostgreSQL
 * the candidates are locked with `FOR UPDATE SKIP LOCKED`, so processes claiming at once pass over
 * each other's rows instead of waiting or taking the same ones (the lock re-checks the condition
 * on the row as committed); SQLite has one writer at a time.
 * @returns the claimed runs' ids.
 */
export function* claimRuns(q: Sql, condition: string, params: unknown[], order: string, lease: RunLease, limit: number): Query<string[]> {
  const skipLocked = q.dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
  const rows = yield* q.all<{ id: string }>(
    `UPDATE automation_runs SET lease_owner = ?, lease_until = ?
      WHERE id IN (SELECT id FROM automation_runs WHERE ${condition} AND ${freeLease(q)} ORDER BY ${order} LIMIT ?${skipLocked})
      RETURNING id`,
    [lease.owner, lease.until, ...params, lease.now, limit],
  );
  return rows.map((row) => row.id);
}

/**
 * Claims one run for `lease.owner` (`RunStore.claimRun`): when its lease is free or already that owner's.
 * @returns whether the run is now claimed by `lease.owner`.
 */
export function* claimOneRun(q: Sql, runId: string, lease: RunLease): Query<boolean> {
  const { changes } = yield* q.run(
    `UPDATE automation_runs SET lease_owner = ?, lease_until = ? WHERE id = ? AND (lease_owner = ? OR ${freeLease(q)})`,
    [lease.owner, lease.until, runId, lease.owner, lease.now],
  );
  return changes === 1;
}

/**
 * {@link claimOneRun} that returns the run as stored once claimed (`RunStore.claimAndGetRun`), in
 * one statement (`RETURNING`).
 * @returns the run, or `undefined` when another engine holds it or there is no such run.
 */
export function* claimAndReadRun(q: Sql, runId: string, lease: RunLease): Query<RunRecord | undefined> {
  const row = yield* q.get<RunRow>(
    `UPDATE automation_runs SET lease_owner = ?, lease_until = ? WHERE id = ? AND (lease_owner = ? OR ${freeLease(q)}) RETURNING ${RUN_COLUMNS}`,
    [lease.owner, lease.until, runId, lease.owner, lease.now],
  );
  return row ? toRun(row) : undefined;
}

/**
 * Extends to `lease.until` the leases `lease.owner` still holds among `runIds` (at most
 * {@link LEASE_BATCH} of them).
 * @returns the ids of the runs whose lease was extended.
 */
export function* renewLeaseBatch(q: Sql, runIds: readonly string[], lease: RunLease): Query<string[]> {
  const rows = yield* q.all<{ id: string }>(
    `UPDATE automation_runs SET lease_until = ? WHERE lease_owner = ? AND id IN (${runIds.map(() => '?').join(', ')}) RETURNING id`,
    [lease.until, lease.owner, ...runIds],
  );
  return rows.map((row) => row.id);
}

/** Gives up `owner`'s lease on one run (nothing if another engine holds it). */
export function* releaseRunLease(q: Sql, runId: string, owner: string): Query<void> {
  yield* q.run('UPDATE automation_runs SET lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?', [runId, owner]);
}

/** Gives up `owner`'s leases on its unfinished runs. */
export function* releaseOwnerLeases(q: Sql, owner: string): Query<void> {
  yield* q.run(
    "UPDATE automation_runs SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ? AND status IN ('queued', 'running', 'waiting')",
    [owner],
  );
}
