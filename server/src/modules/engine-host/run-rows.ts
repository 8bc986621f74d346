import type { AutomationDefinition, AutomationRecord, RunRecord, StepRecord } from '@taskspace/engine';
import type { InboundLink } from './inbound-link';

/**
 * The rows of the run store's tables (migration 003; the PostgreSQL baseline) and the records the
 * engine sees of them. Definitions, triggers, waits, errors and step inputs and outputs are JSON
 * text columns, parsed here.
 */

/** A row of {@link AUTOMATION_FROM}: an automation with its inbound URL, if any. */
export interface AutomationRow {
  id: string;
  workspace_id: string;
  owner_id: string;
  version: number;
  enabled: number;
  definition_json: string;
  meta_json: string;
  created_at: number;
  updated_at: number;
  inbound_id: string | null;
  inbound_token_hash: string | null;
  inbound_created_at: number | null;
}

/** A row of `automation_runs` in {@link RUN_COLUMNS}. */
export interface RunRow {
  id: string;
  automation_id: string;
  version: number;
  workspace_id: string;
  owner_id: string;
  status: RunRecord['status'];
  trigger_json: string;
  depth: number;
  test: number;
  dedupe_key: string | null;
  replay_of: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  wake_at: number | null;
  waiting_json: string | null;
  error_json: string | null;
}

/** A row of `automation_steps` in {@link STEP_COLUMNS}. */
export interface StepRow {
  run_id: string;
  step_id: string;
  type: string;
  status: StepRecord['status'];
  input_json: string | null;
  output_json: string | null;
  error_json: string | null;
  attempts: number;
  started_at: number;
  finished_at: number | null;
  duration_ms: number | null;
  next_attempt_at: number | null;
}

/** Automations with their inbound URL (migration 018: at most one, deleted with the automation); a query text to append `WHERE …` to. */
export const AUTOMATION_FROM = `SELECT a.id, a.workspace_id, a.owner_id, a.version, a.enabled, a.definition_json, a.meta_json, a.created_at, a.updated_at,
       w.id AS inbound_id, w.token_hash AS inbound_token_hash, w.created_at AS inbound_created_at
  FROM automations a LEFT JOIN inbound_webhooks w ON w.automation_id = a.id`;

/** The columns of `automation_runs` a {@link RunRow} has. */
export const RUN_COLUMNS =
  'id, automation_id, version, workspace_id, owner_id, status, trigger_json, depth, test, dedupe_key, replay_of, created_at, started_at, finished_at, wake_at, waiting_json, error_json';

/** The columns of `automation_steps` a {@link StepRow} has. */
export const STEP_COLUMNS =
  'run_id, step_id, type, status, input_json, output_json, error_json, attempts, started_at, finished_at, duration_ms, next_attempt_at';

/** A JSON text column's value: `null` for `undefined`. */
export function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

/** The automation record of a row of {@link AUTOMATION_FROM}; its inbound URL becomes `meta.inbound` (an {@link InboundLink}). */
export function toAutomation(row: AutomationRow): AutomationRecord {
  const record: AutomationRecord = {
    id: row.id,
    workspaceId: row.workspace_id,
    ownerId: row.owner_id,
    version: row.version,
    enabled: row.enabled === 1,
    definition: JSON.parse(row.definition_json) as AutomationDefinition,
    meta: JSON.parse(row.meta_json) as Record<string, unknown>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.inbound_id !== null) {
    const link: InboundLink = { id: row.inbound_id, tokenHash: row.inbound_token_hash, createdAt: row.inbound_created_at! };
    record.meta.inbound = link;
  }
  return record;
}

/** The run record of a row (exported for the automation routes' run listing). */
export function toRun(row: RunRow): RunRecord {
  const run: RunRecord = {
    id: row.id,
    automationId: row.automation_id,
    version: row.version,
    workspaceId: row.workspace_id,
    ownerId: row.owner_id,
    status: row.status,
    trigger: JSON.parse(row.trigger_json) as RunRecord['trigger'],
    depth: row.depth,
    test: row.test === 1,
    createdAt: row.created_at,
  };
  if (row.dedupe_key !== null) run.dedupeKey = row.dedupe_key;
  if (row.replay_of !== null) run.replayOf = row.replay_of;
  if (row.started_at !== null) run.startedAt = row.started_at;
  if (row.finished_at !== null) run.finishedAt = row.finished_at;
  if (row.wake_at !== null) run.wakeAt = row.wake_at;
  if (row.waiting_json !== null) run.waitingOn = JSON.parse(row.waiting_json) as RunRecord['waitingOn'];
  if (row.error_json !== null) run.error = JSON.parse(row.error_json) as RunRecord['error'];
  return run;
}

/** The journal entry of a step row. */
export function toStep(row: StepRow): StepRecord {
  const step: StepRecord = {
    runId: row.run_id,
    stepId: row.step_id,
    type: row.type,
    status: row.status,
    attempts: row.attempts,
    startedAt: row.started_at,
  };
  if (row.input_json !== null) step.input = JSON.parse(row.input_json);
  if (row.output_json !== null) step.output = JSON.parse(row.output_json);
  if (row.error_json !== null) step.error = JSON.parse(row.error_json) as StepRecord['error'];
  if (row.finished_at !== null) step.finishedAt = row.finished_at;
  if (row.duration_ms !== null) step.durationMs = row.duration_ms;
  if (row.next_attempt_at !== null) step.nextAttemptAt = row.next_attempt_at;
  return step;
}
