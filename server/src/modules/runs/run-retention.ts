import { FINAL_RUN_STATUSES } from '@taskspace/engine';
import type { FastifyInstance } from 'fastify';
import type { Query, Sql } from '../../platform/db/query';
import { WorkerLoop, type WorkerLog } from '../../platform/worker-loop';
import type { Services } from '../../services';

/**
 * Run retention (docs "Automations", "Run retention"): the leader deletes finished automation
 * runs (completed, failed, rejected, cancelled, skipped) once they ended longer ago than their
 * window, with their steps, effects, decision links and the trigger and step bodies stored on them
 * (`ON DELETE CASCADE`). Runs still queued, running or waiting are never deleted, whatever their age.
 *
 * Windows, in days: `TASKSPACE_RUN_RETENTION_DAYS` (default 30) and, for failed runs, the longer
 * of that and `TASKSPACE_RUN_RETENTION_FAILED_DAYS` (default 90); 0 keeps forever. An
 * automation's definition `retention: {days, failedDays}` replaces either for its own runs.
 * Deletion goes in batches of {@link RUN_PRUNE_BATCH}, one transaction each, so no transaction
 * holds the database long; time is the injected clock's.
 */

/** Runs deleted per transaction. */
export const RUN_PRUNE_BATCH = 500;

/** One day, in ms. */
const DAY_MS = 86_400_000;

/** How often the retention looks for expired runs, in ms (at once again while a full batch went). */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

const FINISHED = `(${FINAL_RUN_STATUSES.map((s) => `'${s}'`).join(', ')})`;

/**
 * Deletes one batch (at most {@link RUN_PRUNE_BATCH}) of finished runs past their retention window,
 * in one transaction, oldest end first.
 * @param now the current time, ms since the epoch.
 * @returns how many runs went.
 */
export function* pruneRuns(q: Sql, retention: { days: number; failedDays: number }, now: number): Query<number> {
  if (retention.days === 0 && retention.failedDays === 0) {
    // Retention is off for the server: only automations with their own windows have runs to delete.
    const any = yield* q.get(
      'SELECT 1 AS one FROM automations WHERE run_retention_days IS NOT NULL OR run_retention_failed_days IS NOT NULL LIMIT 1',
    );
    if (!any) return 0;
  }
  return yield* q.transaction(function* (tx) {
    // w.d: the window of the automation's runs; failed ones keep the longer of w.d and w.f; 0 is forever (NULL: never older).
    const deleted = yield* tx.run(
      `DELETE FROM automation_runs WHERE id IN (
         SELECT r.id FROM automation_runs r
           JOIN (SELECT id, COALESCE(run_retention_days, ?) AS d, COALESCE(run_retention_failed_days, ?) AS f FROM automations) w
             ON w.id = r.automation_id
          WHERE r.finished_at IS NOT NULL AND r.finished_at < ? AND r.status IN ${FINISHED} AND w.d > 0
            AND r.finished_at < ? - (CASE WHEN r.status <> 'failed' THEN w.d WHEN w.f = 0 THEN NULL WHEN w.f > w.d THEN w.f ELSE w.d END) * ${DAY_MS}
          ORDER BY r.finished_at LIMIT ?)`,
      [retention.days, retention.failedDays, now - DAY_MS, now, RUN_PRUNE_BATCH],
    );
    return deleted.changes;
  });
}

/** {@link pruneRuns} with the server's settings and clock. */
export function pruneExpiredRuns(svc: Services): Query<number> {
  return pruneRuns(svc.store.sql, svc.config.runRetention, svc.clock.now());
}

/**
 * Wires the run retention into the app: a loop started when this process leads (now or at a
 * take-over; never in an `api` process), doing nothing while the lead is not known to hold, and
 * stopped before close.
 */
export function installRunRetention(app: FastifyInstance, svc: Services): void {
  let loop: WorkerLoop | undefined;
  app.addHook('onListen', async () => {
    if (svc.config.role === 'api') return;
    svc.leadership.whenLeading(() => {
      loop ??= retentionLoop(svc, app.log);
      loop.start();
    });
  });
  app.addHook('preClose', async () => {
    await loop?.stop();
    loop = undefined;
  });
}

function retentionLoop(svc: Services, log: WorkerLog): WorkerLoop {
  return new WorkerLoop(
    'run retention',
    async () => {
      if (!svc.leadership.leading) return svc.config.webhooks.pollMs;
      return (await svc.store.run(pruneExpiredRuns(svc))) === RUN_PRUNE_BATCH ? 1000 : PRUNE_EVERY_MS;
    },
    log,
    PRUNE_EVERY_MS,
  );
}
