import type {
  AutomationDefinition,
  AutomationRecord,
  RunLease,
  RunQuery,
  RunRecord,
  RunStore,
  StepRecord,
  VersionRecord,
} from '@taskspace/engine';
import type { Store } from '../../platform/db/store';
import type { Signals } from '../../platform/signals';
import {
  automationById,
  automationsWhere,
  definitionOf,
  insertAutomationRows,
  scheduleSlotOf,
  updateAutomationRows,
} from './automation-queries';
import { claimAndReadRun, claimOneRun, claimRuns, LEASE_BATCH, releaseOwnerLeases, releaseRunLease, renewLeaseBatch } from './run-claims';
import { cancelRequestsOf, insertRun, nextWake, pendingRunsOf, runById, runsMatching, updateRunFields } from './run-queries';
import { resolveWaitingStep, stepsOf, writeStep, writeSteps } from './run-steps';
import type { RunTransitionHook } from './run-transition-hook';

/**
 * The engine's {@link RunStore} over the service's {@link Store}, SQLite or PostgreSQL (migration
 * 003; the PostgreSQL baseline): automations and their versions, runs, the step journal and
 * schedule slots. Every method is one statement or one transaction, committed before it resolves,
 * so the journal survives SIGKILL (WAL on SQLite). The statements are in `automation-queries.ts`,
 * `run-queries.ts`, `run-claims.ts` and `run-steps.ts`; rows and records in `run-rows.ts`.
 */

export { automationOfInboundUrl } from './automation-queries';
export { insertRun } from './run-queries';
export { toRun } from './run-rows';
export type { RunTransition, RunTransitionHook } from './run-transition-hook';

/** What a {@link ServiceRunStore} is constructed with, besides its {@link Store}; all optional. */
export interface ServiceRunStoreOptions {
  /** Notified (`runs`) after each run or step write commits. */
  signals?: Signals;
  /**
   * Called in the transaction of the run writes it observes ({@link RunTransitionHook}). Without
   * it, run writes are only stored: the store itself raises no event.
   */
  hook?: RunTransitionHook;
}

/**
 * The {@link RunStore} over the service's {@link Store} (SQLite or PostgreSQL). It stores and
 * nothing else: what a run's transition raises is its {@link ServiceRunStoreOptions.hook}'s, written
 * in the same transaction as the run. `new ServiceRunStore(store)` stores without signals or hook.
 */
export class ServiceRunStore implements RunStore {
  private readonly signals: Signals | undefined;
  private readonly hook: RunTransitionHook | undefined;

  constructor(
    private readonly store: Store,
    options: ServiceRunStoreOptions = {},
  ) {
    this.signals = options.signals;
    this.hook = options.hook;
  }

  async insertAutomation(a: AutomationRecord): Promise<void> {
    return this.store.run(this.store.sql.transaction((tx) => insertAutomationRows(tx, a)));
  }

  async updateAutomation(a: AutomationRecord): Promise<void> {
    return this.store.run(this.store.sql.transaction((tx) => updateAutomationRows(tx, a)));
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
    return this.store.run(runsMatching(this.store.sql, query));
  }

  /** Writes the run's fields in `patch`; the hook, if any, writes in the same transaction what the transition raises. */
  async updateRun(id: string, patch: Partial<RunRecord>): Promise<void> {
    const hooked = await this.store.run(updateRunFields(this.store.sql, this.hook, id, patch));
    if (hooked === undefined) return;
    if (hooked) this.hook?.afterCommit();
    this.signals?.notify('runs');
  }

  /** {@link updateRun} with the journal entries `steps`, in one statement or transaction. */
  async updateRunWithSteps(id: string, patch: Partial<RunRecord>, steps: readonly StepRecord[]): Promise<void> {
    const hooked = await this.store.run(updateRunFields(this.store.sql, this.hook, id, patch, steps));
    if (hooked === undefined) return;
    if (hooked) this.hook?.afterCommit();
    this.signals?.notify('runs');
  }

  async claimUnfinishedRuns(lease: RunLease, limit: number): Promise<string[]> {
    return this.store.run(claimRuns(this.store.sql, "status IN ('queued', 'running')", [], 'seq', lease, limit));
  }

  async claimDueRuns(dueBy: number, lease: RunLease, limit: number): Promise<string[]> {
    return this.store.run(claimRuns(this.store.sql, "status = 'waiting' AND wake_at <= ?", [dueBy], 'wake_at, seq', lease, limit));
  }

  async claimRun(runId: string, lease: RunLease): Promise<boolean> {
    return this.store.run(claimOneRun(this.store.sql, runId, lease));
  }

  async claimAndGetRun(runId: string, lease: RunLease): Promise<RunRecord | undefined> {
    return this.store.run(claimAndReadRun(this.store.sql, runId, lease));
  }

  async renewLeases(runIds: readonly string[], lease: RunLease): Promise<string[]> {
    const held: string[] = [];
    for (let i = 0; i < runIds.length; i += LEASE_BATCH) {
      held.push(...(await this.store.run(renewLeaseBatch(this.store.sql, runIds.slice(i, i + LEASE_BATCH), lease))));
    }
    return held;
  }

  async releaseRun(runId: string, owner: string): Promise<void> {
    await this.store.run(releaseRunLease(this.store.sql, runId, owner));
  }

  async releaseRuns(owner: string): Promise<void> {
    await this.store.run(releaseOwnerLeases(this.store.sql, owner));
  }

  async nextWakeAt(after: number): Promise<number | undefined> {
    return this.store.run(nextWake(this.store.sql, after));
  }

  async listPendingRuns(automationId: string): Promise<RunRecord[]> {
    return this.store.run(pendingRunsOf(this.store.sql, automationId));
  }

  async requestCancel(runId: string): Promise<void> {
    await this.store.run(this.store.sql.run('UPDATE automation_runs SET cancel_requested = 1 WHERE id = ?', [runId]));
  }

  async listCancelRequests(): Promise<string[]> {
    return this.store.run(cancelRequestsOf(this.store.sql));
  }

  async getSteps(runId: string): Promise<StepRecord[]> {
    return this.store.run(stepsOf(this.store.sql, runId));
  }

  async saveStep(s: StepRecord): Promise<void> {
    await this.store.run(writeStep(this.store.sql, s));
    this.signals?.notify('runs');
  }

  async saveSteps(steps: readonly StepRecord[]): Promise<void> {
    if (steps.length === 0) return;
    await this.store.run(writeSteps(this.store.sql, steps));
    this.signals?.notify('runs');
  }

  async resolveWait(runId: string, stepId: string, output: unknown, now: number): Promise<boolean> {
    return this.store.run(this.store.sql.transaction((tx) => resolveWaitingStep(tx, runId, stepId, output, now)));
  }
}
