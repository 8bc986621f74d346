import type { StepRecord } from '@taskspace/engine';
import type { Query, Sql } from '../../platform/db/query';
import { json, STEP_COLUMNS, toStep, type StepRow } from './run-rows';

/**
 * The run store's statements on the step journal (`automation_steps`): one entry per run and step
 * id, in the order the run's steps first started. Each is a {@link Query} run through the `q` it
 * is given: the store's connection, or the caller's transaction.
 */

/** The upsert of {@link writeSteps}'s statement, after its rows. */
const STEP_UPSERT = `ON CONFLICT (run_id, step_id) DO UPDATE SET
       status = excluded.status, input_json = excluded.input_json, output_json = excluded.output_json, error_json = excluded.error_json,
       attempts = excluded.attempts, started_at = excluded.started_at, finished_at = excluded.finished_at,
       duration_ms = excluded.duration_ms, next_attempt_at = excluded.next_attempt_at`;

/**
 * One statement that inserts or replaces the journal entries `steps` (distinct (runId, stepId)):
 * its text and parameters, for {@link writeSteps} or as a part of a larger statement (a `WITH`).
 * A new entry's ordinal is the run's greatest plus its place in `steps`, so new entries go after
 * the run's others in the order given (whether the statement sees its own earlier rows or not).
 */
export function stepsStatement(steps: readonly StepRecord[]): { text: string; args: unknown[] } {
  const rows: string[] = [];
  const args: unknown[] = [];
  steps.forEach((s, i) => {
    rows.push(`(?, ?, (SELECT COALESCE(MAX(ordinal), 0) + ${i + 1} FROM automation_steps WHERE run_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    args.push(
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
    );
  });
  const text = `INSERT INTO automation_steps (run_id, step_id, ordinal, type, status, input_json, output_json, error_json, attempts, started_at, finished_at,
                                   duration_ms, next_attempt_at)
     VALUES ${rows.join(', ')}
     ${STEP_UPSERT}`;
  return { text, args };
}

/** Inserts or replaces the journal entry (runId, stepId); a new one goes after the run's other steps. */
export function* writeStep(q: Sql, s: StepRecord): Query<void> {
  yield* writeSteps(q, [s]);
}

/**
 * Inserts or replaces the journal entries `steps` (distinct (runId, stepId)) in one statement
 * (`RunStore.saveSteps`); new ones go after the run's others, in the order given.
 */
export function* writeSteps(q: Sql, steps: readonly StepRecord[]): Query<void> {
  if (steps.length === 0) return;
  const { text, args } = stepsStatement(steps);
  yield* q.run(text, args);
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
