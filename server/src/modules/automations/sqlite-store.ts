import { runSync } from '../../platform/db/query';
import type { ApprovalInput, AutomationDefinition, AutomationRecord, RunQuery, RunRecord, RunStore, StepRecord, VersionRecord } from '@taskspace/engine';
import { transaction, type Db } from '../../platform/db/connection';
import { sql } from '../../platform/db/statements';
import { isoTime, type Clock } from '../../platform/clock';
import type { Signals } from '../../platform/signals';
import type { Links } from '../../services';
import { appendEvent } from '../events/outbox';
import { createDecisionLink } from './decision-links';
import { inboundLinkOf, type InboundLink } from './inbound-link';

/**
 * The engine's {@link RunStore} over the service's SQLite database (migration 003): automations
 * and their versions, runs, the step journal and schedule slots. Every method is one statement
 * or one transaction, committed before it resolves, so the journal survives SIGKILL (WAL).
 */

interface AutomationRow {
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

interface RunRow {
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

interface StepRow {
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

/** Automations with their inbound URL (migration 018: at most one, deleted with the automation). */
const AUTOMATION_FROM = `SELECT a.id, a.workspace_id, a.owner_id, a.version, a.enabled, a.definition_json, a.meta_json, a.created_at, a.updated_at,
       w.id AS inbound_id, w.token_hash AS inbound_token_hash, w.created_at AS inbound_created_at
  FROM automations a LEFT JOIN inbound_webhooks w ON w.automation_id = a.id`;
const RUN_COLUMNS =
  'id, automation_id, version, workspace_id, owner_id, status, trigger_json, depth, test, dedupe_key, replay_of, created_at, started_at, finished_at, wake_at, waiting_json, error_json';
const STEP_COLUMNS = 'run_id, step_id, type, status, input_json, output_json, error_json, attempts, started_at, finished_at, duration_ms, next_attempt_at';

/** The automation record of a row of {@link AUTOMATION_FROM}; its inbound URL becomes `meta.inbound` (an {@link InboundLink}). */
function toAutomation(row: AutomationRow): AutomationRecord {
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

/** The automation (with its inbound URL) behind an inbound URL id, read inside the caller's transaction if any. */
export function automationOfInboundUrl(db: Db, inboundId: string): AutomationRecord | undefined {
  const row = sql<[string], AutomationRow>(db, `${AUTOMATION_FROM} WHERE w.id = ?`).get(inboundId);
  return row ? toAutomation(row) : undefined;
}

/** `meta` as stored in `meta_json`: without the inbound URL, which has its own table. */
function storedMeta(a: AutomationRecord): string {
  const { inbound: _inbound, ...rest } = a.meta;
  return JSON.stringify(rest);
}

/** Writes an automation's inbound URL row to match its record: inserted, token changed, or deleted. */
function syncInboundUrl(db: Db, a: AutomationRecord): void {
  const link = inboundLinkOf(a);
  if (!link) {
    sql(db, 'DELETE FROM inbound_webhooks WHERE automation_id = ?').run(a.id);
    return;
  }
  sql(db, 'DELETE FROM inbound_webhooks WHERE automation_id = ? AND id <> ?').run(a.id, link.id);
  sql(
    db,
    `INSERT INTO inbound_webhooks (id, automation_id, token_hash, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET token_hash = excluded.token_hash`,
  ).run(link.id, a.id, link.tokenHash, link.createdAt);
}

function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
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

/**
 * Stores a new run (`RunStore.createRun` semantics, without journal entries) inside the caller's
 * transaction: with `dedupe`, a run of the same automation with the same `dedupeKey` created at or
 * after `dedupe.since` (ms epoch) is returned instead (`created: false`). The inbound intake calls
 * it in the transaction that accepts a call, so an acknowledged call always has its run.
 */
export function insertRun(db: Db, run: RunRecord, dedupe?: { since: number }): { run: RunRecord; created: boolean } {
  if (dedupe && run.dedupeKey !== undefined) {
    const existing = sql<[string, string, number], RunRow>(
      db,
      `SELECT ${RUN_COLUMNS} FROM automation_runs WHERE automation_id = ? AND dedupe_key = ? AND created_at >= ? ORDER BY seq LIMIT 1`,
    ).get(run.automationId, run.dedupeKey, dedupe.since);
    if (existing) return { run: toRun(existing), created: false };
  }
  sql(
    db,
    `INSERT INTO automation_runs (id, automation_id, version, workspace_id, owner_id, status, trigger_json, depth, test, dedupe_key,
                                  replay_of, created_at, started_at, finished_at, wake_at, waiting_json, error_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
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
  );
  return { run, created: true };
}

function toStep(row: StepRow): StepRecord {
  const step: StepRecord = { runId: row.run_id, stepId: row.step_id, type: row.type, status: row.status, attempts: row.attempts, startedAt: row.started_at };
  if (row.input_json !== null) step.input = JSON.parse(row.input_json);
  if (row.output_json !== null) step.output = JSON.parse(row.output_json);
  if (row.error_json !== null) step.error = JSON.parse(row.error_json) as StepRecord['error'];
  if (row.finished_at !== null) step.finishedAt = row.finished_at;
  if (row.duration_ms !== null) step.durationMs = row.duration_ms;
  if (row.next_attempt_at !== null) step.nextAttemptAt = row.next_attempt_at;
  return step;
}

/** Run fields and their columns, for partial updates. */
const RUN_PATCH: Record<string, [column: string, encode: (v: unknown) => unknown]> = {
  status: ['status', (v) => v],
  startedAt: ['started_at', (v) => v ?? null],
  finishedAt: ['finished_at', (v) => v ?? null],
  wakeAt: ['wake_at', (v) => v ?? null],
  waitingOn: ['waiting_json', (v) => (v === undefined ? null : JSON.stringify(v))],
  error: ['error_json', (v) => (v === undefined ? null : JSON.stringify(v))],
};

/** Final statuses: reaching one drops the run's effects ledger (only needed while it runs). */
const FINAL = new Set(['completed', 'failed', 'rejected', 'cancelled', 'skipped']);

/** What the store needs to raise failure alerts: links to runs, and the outbox wake-up. */
export interface FailureAlerts {
  links: Links;
  clock: Clock;
  signals?: Signals;
}

/**
 * The SQLite {@link RunStore}. A non-test run that ends `failed` raises an `automation.failed`
 * event (docs "Failure alerts") in the same transaction as its final status.
 */
export class SqliteRunStore implements RunStore {
  constructor(
    private readonly db: Db,
    private readonly alerts?: FailureAlerts,
  ) {}

  /** Appends the `automation.failed` event of a run that just failed (inside the caller's transaction). */
  private raiseFailure(runId: string): boolean {
    if (!this.alerts) return false;
    const now = this.alerts.clock.now();
    const row = sql<[string], { automationId: string; workspaceId: string; version: number; test: number; depth: number; error: string | null; finishedAt: number | null; definition: string }>(
      this.db,
      `SELECT r.automation_id AS automationId, r.workspace_id AS workspaceId, r.version, r.test, r.depth, r.error_json AS error,
              r.finished_at AS finishedAt, a.definition_json AS definition
         FROM automation_runs r JOIN automations a ON a.id = r.automation_id WHERE r.id = ?`,
    ).get(runId);
    if (!row || row.test === 1) return false;
    const payload = {
      automationId: row.automationId,
      automationName: (JSON.parse(row.definition) as AutomationDefinition).name,
      runId,
      runLink: this.alerts.links.url(`/automations/${row.automationId}/runs/${runId}`),
      version: row.version,
      error: row.error === null ? null : (JSON.parse(row.error) as unknown),
      failedAt: isoTime(row.finishedAt ?? now),
    };
    runSync(appendEvent(this.db.handle, { type: 'automation.failed', workspaceId: row.workspaceId, payload, depth: row.depth }, now));
    return true;
  }

  /**
   * Appends the `approval.requested` event of a run that just started waiting on an approval,
   * with a new decision link (inside the caller's transaction).
   */
  private raiseApproval(runId: string, stepId: string): boolean {
    if (!this.alerts) return false;
    const now = this.alerts.clock.now();
    const row = sql<[string, string], { automationId: string; workspaceId: string; test: number; depth: number; definition: string; input: string | null }>(
      this.db,
      `SELECT r.automation_id AS automationId, r.workspace_id AS workspaceId, r.test, r.depth, a.definition_json AS definition, s.input_json AS input
         FROM automation_runs r JOIN automations a ON a.id = r.automation_id
         LEFT JOIN automation_steps s ON s.run_id = r.id AND s.step_id = ?
        WHERE r.id = ?`,
    ).get(stepId, runId);
    if (!row) return false;
    const input = row.input === null ? undefined : (JSON.parse(row.input) as ApprovalInput);
    const token = createDecisionLink(this.db, runId, stepId, input, now);
    const payload: Record<string, unknown> = {
      automationId: row.automationId,
      automationName: (JSON.parse(row.definition) as AutomationDefinition).name,
      runId,
      runLink: this.alerts.links.url(`/automations/${row.automationId}/runs/${runId}`),
      stepId,
      message: input?.message ?? '',
      approvers: input?.approvers ?? [],
      decisionLink: this.alerts.links.url(`/decide?token=${token}`),
      test: row.test === 1,
    };
    if (input?.timeoutAt !== undefined) payload.timeoutAt = isoTime(input.timeoutAt);
    runSync(appendEvent(this.db.handle, { type: 'approval.requested', workspaceId: row.workspaceId, payload, depth: row.depth }, now));
    return true;
  }

  async insertAutomation(a: AutomationRecord): Promise<void> {
    const { db } = this;
    transaction(db, () => {
      sql(
        db,
        `INSERT INTO automations (id, workspace_id, owner_id, trigger_type, version, enabled, definition_json, meta_json, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(a.id, a.workspaceId, a.ownerId, a.definition.trigger.type, a.version, a.enabled ? 1 : 0, JSON.stringify(a.definition), storedMeta(a), a.createdAt, a.updatedAt);
      syncInboundUrl(db, a);
      sql(db, 'INSERT INTO automation_versions (automation_id, version, definition_json, created_at) VALUES (?, ?, ?, ?)').run(
        a.id,
        a.version,
        JSON.stringify(a.definition),
        a.updatedAt,
      );
    });
  }

  async updateAutomation(a: AutomationRecord): Promise<void> {
    const { db } = this;
    transaction(db, () => {
      sql(
        db,
        `UPDATE automations SET trigger_type = ?, version = ?, enabled = ?, definition_json = ?, meta_json = ?, updated_at = ? WHERE id = ?`,
      ).run(a.definition.trigger.type, a.version, a.enabled ? 1 : 0, JSON.stringify(a.definition), storedMeta(a), a.updatedAt, a.id);
      syncInboundUrl(db, a);
      sql(db, 'INSERT OR IGNORE INTO automation_versions (automation_id, version, definition_json, created_at) VALUES (?, ?, ?, ?)').run(
        a.id,
        a.version,
        JSON.stringify(a.definition),
        a.updatedAt,
      );
    });
  }

  async getAutomation(id: string): Promise<AutomationRecord | undefined> {
    const row = sql<[string], AutomationRow>(this.db, `${AUTOMATION_FROM} WHERE a.id = ?`).get(id);
    return row ? toAutomation(row) : undefined;
  }

  async getDefinition(automationId: string, version: number): Promise<AutomationDefinition | undefined> {
    const row = sql<[string, number], { definition_json: string }>(
      this.db,
      'SELECT definition_json FROM automation_versions WHERE automation_id = ? AND version = ?',
    ).get(automationId, version);
    return row ? (JSON.parse(row.definition_json) as AutomationDefinition) : undefined;
  }

  async listVersions(automationId: string): Promise<VersionRecord[]> {
    return sql<[string], VersionRecord>(
      this.db,
      'SELECT version, created_at AS createdAt FROM automation_versions WHERE automation_id = ? ORDER BY version DESC',
    ).all(automationId);
  }

  async listAutomations(workspaceId: string): Promise<AutomationRecord[]> {
    return sql<[string], AutomationRow>(this.db, `${AUTOMATION_FROM} WHERE a.workspace_id = ? ORDER BY a.created_at, a.id`)
      .all(workspaceId)
      .map(toAutomation);
  }

  async listEnabledAutomations(triggerType: string, workspaceId?: string): Promise<AutomationRecord[]> {
    const rows =
      workspaceId === undefined
        ? sql<[string], AutomationRow>(this.db, `${AUTOMATION_FROM} WHERE a.trigger_type = ? AND a.enabled = 1`).all(triggerType)
        : sql<[string, string], AutomationRow>(
            this.db,
            `${AUTOMATION_FROM} WHERE a.trigger_type = ? AND a.workspace_id = ? AND a.enabled = 1`,
          ).all(triggerType, workspaceId);
    return rows.map(toAutomation);
  }

  async deleteAutomation(id: string): Promise<void> {
    transaction(this.db, () => sql(this.db, 'DELETE FROM automations WHERE id = ?').run(id));
  }

  async getScheduleSlot(automationId: string): Promise<number | undefined> {
    return sql<[string], { schedule_slot: number | null }>(this.db, 'SELECT schedule_slot FROM automations WHERE id = ?').get(automationId)?.schedule_slot ?? undefined;
  }

  async setScheduleSlot(automationId: string, slot: number): Promise<void> {
    sql(this.db, 'UPDATE automations SET schedule_slot = ? WHERE id = ?').run(slot, automationId);
  }

  async createRun(run: RunRecord, dedupe?: { since: number }, steps: StepRecord[] = []): Promise<{ run: RunRecord; created: boolean }> {
    const { db } = this;
    return transaction(db, () => {
      const result = insertRun(db, run, dedupe);
      if (result.created) for (const step of steps) this.writeStep(step);
      return result;
    });
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    const row = sql<[string], RunRow>(this.db, `SELECT ${RUN_COLUMNS} FROM automation_runs WHERE id = ?`).get(id);
    return row ? toRun(row) : undefined;
  }

  async listRuns(query: RunQuery): Promise<RunRecord[]> {
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
    return sql<unknown[], RunRow>(this.db, text)
      .all(...args, query.limit)
      .map(toRun);
  }

  async updateRun(id: string, patch: Partial<RunRecord>): Promise<void> {
    const sets: string[] = [];
    const args: unknown[] = [];
    for (const key of Object.keys(patch)) {
      const mapped = RUN_PATCH[key];
      if (!mapped) continue;
      sets.push(`${mapped[0]} = ?`);
      args.push(mapped[1]((patch as Record<string, unknown>)[key]));
    }
    if (sets.length === 0) return;
    const { db } = this;
    const text = `UPDATE automation_runs SET ${sets.join(', ')} WHERE id = ?`;
    if (patch.status !== undefined && FINAL.has(patch.status)) {
      const raised = transaction(db, () => {
        sql(db, text).run(...args, id);
        sql(db, 'DELETE FROM automation_effects WHERE run_id = ?').run(id);
        return patch.status === 'failed' && this.raiseFailure(id);
      });
      if (raised) this.alerts?.signals?.notify('events');
    } else if (patch.status === 'waiting' && patch.waitingOn?.kind === 'approval') {
      const { stepId } = patch.waitingOn;
      // Raised once per approval: only when the run starts waiting on it (not when it is written again).
      const raised = transaction(db, () => {
        const before = sql<[string], string | null>(db, "SELECT waiting_json FROM automation_runs WHERE id = ? AND status = 'waiting'").pluck().get(id);
        sql(db, text).run(...args, id);
        return before !== json(patch.waitingOn) && this.raiseApproval(id, stepId);
      });
      if (raised) this.alerts?.signals?.notify('events');
    } else sql(db, text).run(...args, id);
    this.alerts?.signals?.notify('runs');
  }

  async listUnfinishedRuns(): Promise<RunRecord[]> {
    return sql<[], RunRow>(this.db, `SELECT ${RUN_COLUMNS} FROM automation_runs WHERE status IN ('queued', 'running') ORDER BY seq`)
      .all()
      .map(toRun);
  }

  async listDueRuns(now: number, limit: number): Promise<RunRecord[]> {
    return sql<[number, number], RunRow>(
      this.db,
      `SELECT ${RUN_COLUMNS} FROM automation_runs WHERE status = 'waiting' AND wake_at <= ? ORDER BY wake_at, seq LIMIT ?`,
    )
      .all(now, limit)
      .map(toRun);
  }

  async nextWakeAt(after: number): Promise<number | undefined> {
    return sql<[number], { at: number | null }>(this.db, "SELECT MIN(wake_at) AS at FROM automation_runs WHERE status = 'waiting' AND wake_at > ?").get(after)?.at ?? undefined;
  }

  async listPendingRuns(automationId: string): Promise<RunRecord[]> {
    return sql<[string], RunRow>(
      this.db,
      `SELECT ${RUN_COLUMNS} FROM automation_runs WHERE automation_id = ? AND status IN ('queued', 'waiting') ORDER BY seq`,
    )
      .all(automationId)
      .map(toRun);
  }

  async getSteps(runId: string): Promise<StepRecord[]> {
    return sql<[string], StepRow>(this.db, `SELECT ${STEP_COLUMNS} FROM automation_steps WHERE run_id = ? ORDER BY ordinal`)
      .all(runId)
      .map(toStep);
  }

  async saveStep(s: StepRecord): Promise<void> {
    this.writeStep(s);
    this.alerts?.signals?.notify('runs');
  }

  private writeStep(s: StepRecord): void {
    sql(
      this.db,
      `INSERT INTO automation_steps (run_id, step_id, ordinal, type, status, input_json, output_json, error_json, attempts, started_at, finished_at,
                                     duration_ms, next_attempt_at)
       VALUES (?, ?, (SELECT COALESCE(MAX(ordinal), 0) + 1 FROM automation_steps WHERE run_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (run_id, step_id) DO UPDATE SET
         status = excluded.status, input_json = excluded.input_json, output_json = excluded.output_json, error_json = excluded.error_json,
         attempts = excluded.attempts, started_at = excluded.started_at, finished_at = excluded.finished_at,
         duration_ms = excluded.duration_ms, next_attempt_at = excluded.next_attempt_at`,
    ).run(
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
  }

  async resolveWait(runId: string, stepId: string, output: unknown, now: number): Promise<boolean> {
    const { db } = this;
    return transaction(db, () => {
      const step = sql<[string, string], { status: string; started_at: number }>(
        db,
        "SELECT s.status, s.started_at FROM automation_steps s JOIN automation_runs r ON r.id = s.run_id WHERE s.run_id = ? AND s.step_id = ? AND r.status = 'waiting'",
      ).get(runId, stepId);
      if (!step || step.status !== 'waiting') return false;
      sql(db, "UPDATE automation_steps SET status = 'succeeded', output_json = ?, finished_at = ?, duration_ms = ? WHERE run_id = ? AND step_id = ?").run(
        JSON.stringify(output),
        now,
        now - step.started_at,
        runId,
        stepId,
      );
      sql(db, "UPDATE automation_runs SET status = 'queued', wake_at = NULL, waiting_json = NULL WHERE id = ?").run(runId);
      return true;
    });
  }
}
