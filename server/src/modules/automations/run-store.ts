import type {
  ApprovalInput,
  AutomationDefinition,
  AutomationRecord,
  RunLease,
  RunQuery,
  RunRecord,
  RunStore,
  StepRecord,
  VersionRecord,
} from '@taskspace/engine';
import type { Query, Sql } from '../../platform/db/query';
import type { Store } from '../../platform/db/store';
import { isoTime, type Clock } from '../../platform/clock';
import type { Signals } from '../../platform/signals';
import type { Links } from '../../services';
import { appendEvent } from '../events/outbox';
import { createDecisionLink } from './decision-links';
import { inboundLinkOf, type InboundLink } from './inbound-link';
import { ownerGone } from '../../platform/db/postgres/presence';
import { retentionColumns, saveOf, staleVersion } from './version-save';

/**
 * The engine's {@link RunStore} over the service's {@link Store}, SQLite or PostgreSQL (migration
 * 003; the PostgreSQL baseline): automations and their versions, runs, the step journal and
 * schedule slots. Every method is one statement or one transaction, committed before it resolves,
 * so the journal survives SIGKILL (WAL on SQLite). Definitions, triggers, waits, errors and step
 * inputs and outputs are JSON text columns, parsed here.
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
const STEP_COLUMNS =
  'run_id, step_id, type, status, input_json, output_json, error_json, attempts, started_at, finished_at, duration_ms, next_attempt_at';

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

/** The automation (with its inbound URL) behind an inbound URL id, read through `q` (the caller's transaction, if any). */
export function* automationOfInboundUrl(q: Sql, inboundId: string): Query<AutomationRecord | undefined> {
  const row = yield* q.get<AutomationRow>(`${AUTOMATION_FROM} WHERE w.id = ?`, [inboundId]);
  return row ? toAutomation(row) : undefined;
}

/** `meta` as stored in `meta_json`: without the inbound URL, which has its own table. */
function storedMeta(a: AutomationRecord): string {
  const { inbound: _inbound, save: _save, ...rest } = a.meta;
  return JSON.stringify(rest);
}

/** Writes an automation's inbound URL row to match its record: inserted, token changed, or deleted (inside the caller's transaction). */
function* syncInboundUrl(q: Sql, a: AutomationRecord): Query<void> {
  const link = inboundLinkOf(a);
  if (!link) {
    yield* q.run('DELETE FROM inbound_webhooks WHERE automation_id = ?', [a.id]);
    return;
  }
  yield* q.run('DELETE FROM inbound_webhooks WHERE automation_id = ? AND id <> ?', [a.id, link.id]);
  yield* q.run(
    `INSERT INTO inbound_webhooks (id, automation_id, token_hash, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET token_hash = excluded.token_hash`,
    [link.id, a.id, link.tokenHash, link.createdAt],
  );
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

function toStep(row: StepRow): StepRecord {
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

/** Inserts or replaces the journal entry (runId, stepId); a new one goes after the run's other steps. */
function* writeStep(q: Sql, s: StepRecord): Query<void> {
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
 * Appends the `automation.failed` event of a run that just failed, through `q` (inside the
 * caller's transaction). @returns whether an event was appended (none for a test run).
 */
function* raiseFailure(q: Sql, alerts: FailureAlerts, runId: string): Query<boolean> {
  const now = alerts.clock.now();
  const row = yield* q.get<{
    automationId: string;
    workspaceId: string;
    version: number;
    test: number;
    depth: number;
    error: string | null;
    finishedAt: number | null;
    definition: string;
  }>(
    `SELECT r.automation_id AS "automationId", r.workspace_id AS "workspaceId", r.version, r.test, r.depth, r.error_json AS error,
            r.finished_at AS "finishedAt", a.definition_json AS definition
       FROM automation_runs r JOIN automations a ON a.id = r.automation_id WHERE r.id = ?`,
    [runId],
  );
  if (!row || row.test === 1) return false;
  const payload = {
    automationId: row.automationId,
    automationName: (JSON.parse(row.definition) as AutomationDefinition).name,
    runId,
    runLink: alerts.links.url(`/automations/${row.automationId}/runs/${runId}`),
    version: row.version,
    error: row.error === null ? null : (JSON.parse(row.error) as unknown),
    failedAt: isoTime(row.finishedAt ?? now),
  };
  yield* appendEvent(q, { type: 'automation.failed', workspaceId: row.workspaceId, payload, depth: row.depth }, now);
  return true;
}

/**
 * Appends the `approval.requested` event of a run that just started waiting on an approval,
 * with a new decision link, through `q` (inside the caller's transaction).
 * @returns whether an event was appended.
 */
function* raiseApproval(q: Sql, alerts: FailureAlerts, runId: string, stepId: string): Query<boolean> {
  const now = alerts.clock.now();
  const row = yield* q.get<{
    automationId: string;
    workspaceId: string;
    test: number;
    depth: number;
    definition: string;
    input: string | null;
  }>(
    `SELECT r.automation_id AS "automationId", r.workspace_id AS "workspaceId", r.test, r.depth, a.definition_json AS definition, s.input_json AS input
       FROM automation_runs r JOIN automations a ON a.id = r.automation_id
       LEFT JOIN automation_steps s ON s.run_id = r.id AND s.step_id = ?
      WHERE r.id = ?`,
    [stepId, runId],
  );
  if (!row) return false;
  const input = row.input === null ? undefined : (JSON.parse(row.input) as ApprovalInput);
  const token = yield* createDecisionLink(q, runId, stepId, input, now);
  const payload: Record<string, unknown> = {
    automationId: row.automationId,
    automationName: (JSON.parse(row.definition) as AutomationDefinition).name,
    runId,
    runLink: alerts.links.url(`/automations/${row.automationId}/runs/${runId}`),
    stepId,
    message: input?.message ?? '',
    approvers: input?.approvers ?? [],
    decisionLink: alerts.links.url(`/decide?token=${token}`),
    test: row.test === 1,
  };
  if (input?.timeoutAt !== undefined) payload.timeoutAt = isoTime(input.timeoutAt);
  yield* appendEvent(q, { type: 'approval.requested', workspaceId: row.workspaceId, payload, depth: row.depth }, now);
  return true;
}

/**
 * Writes a run's changed fields (`text`, an UPDATE of {@link RUN_PATCH} columns, with `args` then
 * the id). Reaching a final status also drops the effects ledger and, for a non-test run that
 * failed, raises `automation.failed`; starting to wait on an approval raises `approval.requested`
 * once. Each of those is one transaction.
 * @returns whether an event was appended (the outbox needs a wake-up).
 */
function* writeRun(
  q: Sql,
  alerts: FailureAlerts | undefined,
  id: string,
  text: string,
  args: unknown[],
  patch: Partial<RunRecord>,
): Query<boolean> {
  if (patch.status !== undefined && FINAL.has(patch.status)) {
    const failed = patch.status === 'failed';
    return yield* q.transaction(function* (tx) {
      yield* tx.run(text, [...args, id]);
      yield* tx.run('DELETE FROM automation_effects WHERE run_id = ?', [id]);
      return failed && alerts !== undefined && (yield* raiseFailure(tx, alerts, id));
    });
  }
  if (patch.status === 'waiting' && patch.waitingOn?.kind === 'approval') {
    const { stepId } = patch.waitingOn;
    const waiting = json(patch.waitingOn);
    // Raised once per approval: only when the run starts waiting on it (not when it is written again).
    return yield* q.transaction(function* (tx) {
      const before = yield* tx.get<{ waiting_json: string | null }>(
        "SELECT waiting_json FROM automation_runs WHERE id = ? AND status = 'waiting'",
        [id],
      );
      yield* tx.run(text, [...args, id]);
      return before?.waiting_json !== waiting && alerts !== undefined && (yield* raiseApproval(tx, alerts, id, stepId));
    });
  }
  yield* q.run(text, [...args, id]);
  return false;
}

/**
 * The {@link RunStore} over the service's {@link Store} (SQLite or PostgreSQL). A non-test run
 * that ends `failed` raises an `automation.failed` event (docs "Failure alerts") in the same
 * transaction as its final status.
 */
export class ServiceRunStore implements RunStore {
  constructor(
    private readonly store: Store,
    private readonly alerts?: FailureAlerts,
  ) {}

  async insertAutomation(a: AutomationRecord): Promise<void> {
    return this.store.run(
      this.store.sql.transaction(function* (tx) {
        yield* tx.run(
          `INSERT INTO automations (id, workspace_id, owner_id, trigger_type, version, enabled, definition_json, meta_json, created_at, updated_at,
                                    run_retention_days, run_retention_failed_days)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            a.id,
            a.workspaceId,
            a.ownerId,
            a.definition.trigger.type,
            a.version,
            a.enabled ? 1 : 0,
            JSON.stringify(a.definition),
            storedMeta(a),
            a.createdAt,
            a.updatedAt,
            ...retentionColumns(a),
          ],
        );
        yield* syncInboundUrl(tx, a);
        const save = saveOf(a);
        yield* tx.run(
          'INSERT INTO automation_versions (automation_id, version, definition_json, created_at, author_id, message) VALUES (?, ?, ?, ?, ?, ?)',
          [a.id, a.version, JSON.stringify(a.definition), a.updatedAt, save?.authorId ?? a.ownerId, save?.message ?? null],
        );
      }),
    );
  }

  async updateAutomation(a: AutomationRecord): Promise<void> {
    return this.store.run(
      this.store.sql.transaction(function* (tx) {
        const save = saveOf(a);
        const updated = yield* tx.run(
          `UPDATE automations SET trigger_type = ?, version = ?, enabled = ?, definition_json = ?, meta_json = ?, updated_at = ?,
                  run_retention_days = ?, run_retention_failed_days = ?
            WHERE id = ?${save?.ifVersion === undefined ? '' : ' AND version = ?'}`,
          [
            a.definition.trigger.type,
            a.version,
            a.enabled ? 1 : 0,
            JSON.stringify(a.definition),
            storedMeta(a),
            a.updatedAt,
            ...retentionColumns(a),
            a.id,
            ...(save?.ifVersion === undefined ? [] : [save.ifVersion]),
          ],
        );
        // If-Match: another save came first (the registry read the version before this transaction).
        if (updated.changes === 0 && save?.ifVersion !== undefined) throw staleVersion();
        yield* syncInboundUrl(tx, a);
        yield* tx.run(
          `INSERT INTO automation_versions (automation_id, version, definition_json, created_at, author_id, message) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (automation_id, version) DO NOTHING`,
          [a.id, a.version, JSON.stringify(a.definition), a.updatedAt, save?.authorId ?? null, save?.message ?? null],
        );
      }),
    );
  }

  async getAutomation(id: string): Promise<AutomationRecord | undefined> {
    return this.store.run(automationById(this.store.sql, id));
  }

  async getDefinition(automationId: string, version: number): Promise<AutomationDefinition | undefined> {
    return this.store.run(definitionOf(this.store.sql, automationId, version));
  }

  async listVersions(automationId: string): Promise<VersionRecord[]> {
    return this.store.run(
      this.store.sql.all<VersionRecord>(
        'SELECT version, created_at AS "createdAt" FROM automation_versions WHERE automation_id = ? ORDER BY version DESC',
        [automationId],
      ),
    );
  }

  async listAutomations(workspaceId: string): Promise<AutomationRecord[]> {
    return this.store.run(automationsWhere(this.store.sql, 'a.workspace_id = ? ORDER BY a.created_at, a.id', [workspaceId]));
  }

  async listEnabledAutomations(triggerType: string, workspaceId?: string): Promise<AutomationRecord[]> {
    return this.store.run(
      workspaceId === undefined
        ? automationsWhere(this.store.sql, 'a.trigger_type = ? AND a.enabled = 1', [triggerType])
        : automationsWhere(this.store.sql, 'a.trigger_type = ? AND a.workspace_id = ? AND a.enabled = 1', [triggerType, workspaceId]),
    );
  }

  async deleteAutomation(id: string): Promise<void> {
    // Versions, runs, steps, effects, decision links and the inbound URL go with it (ON DELETE CASCADE).
    return this.store.run(
      this.store.sql.transaction(function* (tx) {
        yield* tx.run('DELETE FROM automations WHERE id = ?', [id]);
      }),
    );
  }

  async getScheduleSlot(automationId: string): Promise<number | undefined> {
    return this.store.run(scheduleSlotOf(this.store.sql, automationId));
  }

  async setScheduleSlot(automationId: string, slot: number): Promise<void> {
    await this.store.run(this.store.sql.run('UPDATE automations SET schedule_slot = ? WHERE id = ?', [slot, automationId]));
  }

  async createRun(
    run: RunRecord,
    dedupe?: { since: number },
    steps: StepRecord[] = [],
    lease?: RunLease,
  ): Promise<{ run: RunRecord; created: boolean }> {
    return this.store.run(
      this.store.sql.transaction(function* (tx) {
        const result = yield* insertRun(tx, run, dedupe, lease);
        if (result.created) for (const step of steps) yield* writeStep(tx, step);
        return result;
      }),
    );
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    return this.store.run(runById(this.store.sql, id));
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
    return this.store.run(runsOf(this.store.sql, text, [...args, query.limit]));
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
    const text = `UPDATE automation_runs SET ${sets.join(', ')} WHERE id = ?`;
    const raised = await this.store.run(writeRun(this.store.sql, this.alerts, id, text, args, patch));
    if (raised) this.alerts?.signals?.notify('events');
    this.alerts?.signals?.notify('runs');
  }

  async claimUnfinishedRuns(lease: RunLease, limit: number): Promise<string[]> {
    return this.store.run(claimRuns(this.store.sql, "status IN ('queued', 'running')", [], 'seq', lease, limit));
  }

  async claimDueRuns(dueBy: number, lease: RunLease, limit: number): Promise<string[]> {
    return this.store.run(claimRuns(this.store.sql, "status = 'waiting' AND wake_at <= ?", [dueBy], 'wake_at, seq', lease, limit));
  }

  async claimRun(runId: string, lease: RunLease): Promise<boolean> {
    const q = this.store.sql;
    const { changes } = await this.store.run(
      q.run(`UPDATE automation_runs SET lease_owner = ?, lease_until = ? WHERE id = ? AND (lease_owner = ? OR ${freeLease(q)})`, [
        lease.owner,
        lease.until,
        runId,
        lease.owner,
        lease.now,
      ]),
    );
    return changes === 1;
  }

  async renewLeases(runIds: readonly string[], lease: RunLease): Promise<string[]> {
    const held: string[] = [];
    for (let i = 0; i < runIds.length; i += LEASE_BATCH) {
      const ids = runIds.slice(i, i + LEASE_BATCH);
      const rows = await this.store.run(
        this.store.sql.all<{ id: string }>(
          `UPDATE automation_runs SET lease_until = ? WHERE lease_owner = ? AND id IN (${ids.map(() => '?').join(', ')}) RETURNING id`,
          [lease.until, lease.owner, ...ids],
        ),
      );
      held.push(...rows.map((row) => row.id));
    }
    return held;
  }

  async releaseRun(runId: string, owner: string): Promise<void> {
    await this.store.run(
      this.store.sql.run('UPDATE automation_runs SET lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?', [
        runId,
        owner,
      ]),
    );
  }

  async releaseRuns(owner: string): Promise<void> {
    await this.store.run(
      this.store.sql.run(
        "UPDATE automation_runs SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ? AND status IN ('queued', 'running', 'waiting')",
        [owner],
      ),
    );
  }

  async nextWakeAt(after: number): Promise<number | undefined> {
    return this.store.run(nextWake(this.store.sql, after));
  }

  async listPendingRuns(automationId: string): Promise<RunRecord[]> {
    return this.store.run(
      runsOf(
        this.store.sql,
        `SELECT ${RUN_COLUMNS} FROM automation_runs WHERE automation_id = ? AND status IN ('queued', 'waiting') ORDER BY seq`,
        [automationId],
      ),
    );
  }

  async requestCancel(runId: string): Promise<void> {
    await this.store.run(this.store.sql.run('UPDATE automation_runs SET cancel_requested = 1 WHERE id = ?', [runId]));
  }

  async listCancelRequests(): Promise<string[]> {
    const rows = await this.store.run(
      this.store.sql.all<{ id: string }>(
        "SELECT id FROM automation_runs WHERE cancel_requested = 1 AND status IN ('queued', 'running', 'waiting') ORDER BY seq",
      ),
    );
    return rows.map((row) => row.id);
  }

  async getSteps(runId: string): Promise<StepRecord[]> {
    return this.store.run(stepsOf(this.store.sql, runId));
  }

  async saveStep(s: StepRecord): Promise<void> {
    await this.store.run(writeStep(this.store.sql, s));
    this.alerts?.signals?.notify('runs');
  }

  async resolveWait(runId: string, stepId: string, output: unknown, now: number): Promise<boolean> {
    return this.store.run(
      this.store.sql.transaction(function* (tx) {
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
      }),
    );
  }
}

/** Automations (with their inbound URL) matching `condition` (SQL after WHERE, from constants), with `params`. */
function* automationsWhere(q: Sql, condition: string, params: unknown[]): Query<AutomationRecord[]> {
  return (yield* q.all<AutomationRow>(`${AUTOMATION_FROM} WHERE ${condition}`, params)).map(toAutomation);
}

/** Runs whose leases {@link ServiceRunStore.renewLeases} extends per statement. */
const LEASE_BATCH = 500;

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
function* claimRuns(q: Sql, condition: string, params: unknown[], order: string, lease: RunLease, limit: number): Query<string[]> {
  const skipLocked = q.dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
  const rows = yield* q.all<{ id: string }>(
    `UPDATE automation_runs SET lease_owner = ?, lease_until = ?
      WHERE id IN (SELECT id FROM automation_runs WHERE ${condition} AND ${freeLease(q)} ORDER BY ${order} LIMIT ?${skipLocked})
      RETURNING id`,
    [lease.owner, lease.until, ...params, lease.now, limit],
  );
  return rows.map((row) => row.id);
}

/** The runs a query text of {@link RUN_COLUMNS} selects, with `params`. */
function* runsOf(q: Sql, text: string, params: unknown[]): Query<RunRecord[]> {
  return (yield* q.all<RunRow>(text, params)).map(toRun);
}

function* automationById(q: Sql, id: string): Query<AutomationRecord | undefined> {
  const row = yield* q.get<AutomationRow>(`${AUTOMATION_FROM} WHERE a.id = ?`, [id]);
  return row ? toAutomation(row) : undefined;
}

/** The definition of one kept version. */
function* definitionOf(q: Sql, automationId: string, version: number): Query<AutomationDefinition | undefined> {
  const row = yield* q.get<{ definition_json: string }>(
    'SELECT definition_json FROM automation_versions WHERE automation_id = ? AND version = ?',
    [automationId, version],
  );
  return row ? (JSON.parse(row.definition_json) as AutomationDefinition) : undefined;
}

function* scheduleSlotOf(q: Sql, automationId: string): Query<number | undefined> {
  const row = yield* q.get<{ schedule_slot: number | null }>('SELECT schedule_slot FROM automations WHERE id = ?', [automationId]);
  return row?.schedule_slot ?? undefined;
}

function* runById(q: Sql, id: string): Query<RunRecord | undefined> {
  const row = yield* q.get<RunRow>(`SELECT ${RUN_COLUMNS} FROM automation_runs WHERE id = ?`, [id]);
  return row ? toRun(row) : undefined;
}

/** The smallest `wake_at` after `after` among waiting runs. */
function* nextWake(q: Sql, after: number): Query<number | undefined> {
  const row = yield* q.get<{ next_wake: number | null }>(
    "SELECT MIN(wake_at) AS next_wake FROM automation_runs WHERE status = 'waiting' AND wake_at > ?",
    [after],
  );
  return row?.next_wake ?? undefined;
}

/** A run's journal in the order its steps first started. */
function* stepsOf(q: Sql, runId: string): Query<StepRecord[]> {
  return (yield* q.all<StepRow>(`SELECT ${STEP_COLUMNS} FROM automation_steps WHERE run_id = ? ORDER BY ordinal`, [runId])).map(toStep);
}
