import type { StepRecord } from '@taskspace/engine';
import type { Query, Sql } from '../../platform/db/query';
import { json, STEP_COLUMNS, toStep, type StepRow } from './run-rows';

/**
 * The run store's statements on the step journal (`automation_steps`): one entry per run and step
 * id, in the order the run's steps first started. Each is a {@link Query} run through the `q` it
 * is given: the store's connection, or the caller's transaction.
 */

/** Inserts or replaces the journal entry (runId, stepId); a new one goes after the run's other steps. */
export function* writeStep(q: Sql, s: StepRecord): Query<void> {
  yield* q.run(
    `INSERT INTO automation_steps (run_id, step_id, ordinal, type, status, input_json, output_json, error_json, attempts, started_at, finished_at,
                                   duration_ms, next_attempt_at)
     VALUES (?, ?, (SELECT COALESCE(MAX(ordinal), 0) + 1 FROM automation_steps WHERE run_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (run_id, step_id) DO UPDATE SET
       status = excluded.status, input_json = excluded.input_json, output_json = excluded.output_json, error_json = excluded.error_json,
       attempts = excluded.attempts, started_at = excluded.started_at, finished_at = excluded.finished_at,
       duration_ms = excluded.duration_ms, next_attempt_at = excluded.next_attempt_at`,
    [
      s.runId,
      s.stepId,
      s.runId,
      s.type,
      s.status,
      json(s.input),
      json(s.output),
      json(s.error),
      s.attempts,
      s.startedAt,
      s.finishedAt ?? null,
      s.durationMs ?? null,
      s.nextAttemptAt ?? null,
    ],
  );
}

/** A run's journal in the order its steps first started. */
export function* stepsOf(q: Sql, runId: string): Query<StepRecord[]> {
  return (yield* q.all<StepRow>(`SELECT ${STEP_COLUMNS} FROM automation_steps WHERE run_id = ? ORDER BY ordinal`, [runId])).map(toStep);
}

/**
 * Resolves a waiting step (`RunStore.resolveWait`) through `tx` (the caller's transaction): when
 * the run is waiting and the step is, the step succeeds with `output` at `now` (ms epoch) and the
 * run is queued again.
 * @returns whether the wait was resolved (false when the run or step was not waiting).
 */
export function* resolveWaitingStep(tx: Sql, runId: string, stepId: string, output: unknown, now: number): Query<boolean> {
  const step = yield* tx.get<{ status: string; started_at: number }>(
    "SELECT s.status, s.started_at FROM automation_steps s JOIN automation_runs r ON r.id = s.run_id WHERE s.run_id = ? AND s.step_id = ? AND r.status = 'waiting'",
    [runId, stepId],
  );
  if (!step || step.status !== 'waiting') return false;
  yield* tx.run(
    "UPDATE automation_steps SET status = 'succeeded', output_json = ?, finished_at = ?, duration_ms = ? WHERE run_id = ? AND step_id = ?",
    [JSON.stringify(output), now, now - step.started_at, runId, stepId],
  );
  yield* tx.run("UPDATE automation_runs SET status = 'queued', wake_at = NULL, waiting_json = NULL WHERE id = ?", [runId]);
  return true;
}
