/**
 * An in-memory {@link RunStore}: for standalone programs that need no durability and for tests.
 * Records are copied in and out (JSON), so callers never share state with the store; a second
 * engine over the same instance behaves like a restart over a durable store.
 */
import type { AutomationDefinition } from './definition';
import {
  FINAL_STATUSES,
  type AutomationRecord,
  type RunLease,
  type RunQuery,
  type RunRecord,
  type RunStore,
  type StepRecord,
  type VersionRecord,
} from './ports';

function copy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** A {@link RunStore} kept in memory. */
export class MemoryStore implements RunStore {
  private readonly automations = new Map<string, AutomationRecord>();
  private readonly versions = new Map<string, { definition: AutomationDefinition; createdAt: number }>();
  private readonly slots = new Map<string, number>();
  private readonly runs = new Map<string, RunRecord>();
  private readonly steps = new Map<string, StepRecord[]>();
  /** Claims of runs by engines (see `RunLease`), by run id. */
  private readonly leases = new Map<string, { owner: string; until: number }>();
  /** Runs whose cancellation was requested. */
  private readonly cancelRequests = new Set<string>();

  async insertAutomation(automation: AutomationRecord): Promise<void> {
    if (this.automations.has(automation.id)) throw new Error(`automation ${automation.id} exists`);
    this.automations.set(automation.id, copy(automation));
    this.versions.set(`${automation.id}@${automation.version}`, {
      definition: copy(automation.definition),
      createdAt: automation.updatedAt,
    });
  }

  async updateAutomation(automation: AutomationRecord): Promise<void> {
    if (!this.automations.has(automation.id)) throw new Error(`automation ${automation.id} not found`);
    this.automations.set(automation.id, copy(automation));
    const key = `${automation.id}@${automation.version}`;
    if (!this.versions.has(key)) this.versions.set(key, { definition: copy(automation.definition), createdAt: automation.updatedAt });
  }

  async getAutomation(id: string): Promise<AutomationRecord | undefined> {
    return copy(this.automations.get(id));
  }

  async getDefinition(automationId: string, version: number): Promise<AutomationDefinition | undefined> {
    return copy(this.versions.get(`${automationId}@${version}`)?.definition);
  }

  async listVersions(automationId: string): Promise<VersionRecord[]> {
    return [...this.versions.entries()]
      .filter(([key]) => key.startsWith(`${automationId}@`))
      .map(([key, v]) => ({ version: Number(key.slice(automationId.length + 1)), createdAt: v.createdAt }))
      .sort((a, b) => b.version - a.version);
  }

  async listAutomations(workspaceId: string): Promise<AutomationRecord[]> {
    return [...this.automations.values()].filter((a) => a.workspaceId === workspaceId).map(copy);
  }

  async listEnabledAutomations(triggerType: string, workspaceId?: string): Promise<AutomationRecord[]> {
    return [...this.automations.values()]
      .filter((a) => a.enabled && a.definition.trigger.type === triggerType && (workspaceId === undefined || a.workspaceId === workspaceId))
      .map(copy);
  }

  async deleteAutomation(id: string): Promise<void> {
    this.automations.delete(id);
    for (const key of [...this.versions.keys()]) if (key.startsWith(`${id}@`)) this.versions.delete(key);
    this.slots.delete(id);
    for (const run of [...this.runs.values()]) {
      if (run.automationId !== id) continue;
      this.runs.delete(run.id);
      this.steps.delete(run.id);
      this.leases.delete(run.id);
      this.cancelRequests.delete(run.id);
    }
  }

  async getScheduleSlot(automationId: string): Promise<number | undefined> {
    return this.slots.get(automationId);
  }

  async setScheduleSlot(automationId: string, slot: number): Promise<void> {
    this.slots.set(automationId, slot);
  }

  async createRun(
    run: RunRecord,
    dedupe?: { since: number },
    steps: StepRecord[] = [],
    lease?: RunLease,
  ): Promise<{ run: RunRecord; created: boolean }> {
    if (dedupe && run.dedupeKey !== undefined) {
      for (const existing of this.runs.values()) {
        if (existing.automationId === run.automationId && existing.dedupeKey === run.dedupeKey && existing.createdAt >= dedupe.since) {
          return { run: copy(existing), created: false };
        }
      }
    }
    if (this.runs.has(run.id)) throw new Error(`run ${run.id} exists`);
    this.runs.set(run.id, copy(run));
    if (steps.length > 0) this.steps.set(run.id, steps.map(copy));
    if (lease) this.leases.set(run.id, { owner: lease.owner, until: lease.until });
    return { run: copy(run), created: true };
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    return copy(this.runs.get(id));
  }

  async listRuns(query: RunQuery): Promise<RunRecord[]> {
    let all = [...this.runs.values()].reverse();
    if (query.beforeRunId !== undefined) {
      const at = all.findIndex((r) => r.id === query.beforeRunId);
      all = at < 0 ? [] : all.slice(at + 1);
    }
    return all
      .filter(
        (r) =>
          (query.workspaceId === undefined || r.workspaceId === query.workspaceId) &&
          (query.automationId === undefined || r.automationId === query.automationId) &&
          (query.status === undefined || r.status === query.status) &&
          (query.createdFrom === undefined || r.createdAt >= query.createdFrom) &&
          (query.createdBefore === undefined || r.createdAt < query.createdBefore),
      )
      .slice(0, query.limit)
      .map(copy);
  }

  async updateRun(id: string, patch: Partial<RunRecord>): Promise<void> {
    this.writeRun(id, patch);
  }

  async updateRunWithSteps(id: string, patch: Partial<RunRecord>, steps: readonly StepRecord[]): Promise<void> {
    if (!this.runs.has(id)) throw new Error(`run ${id} not found`);
    this.writeSteps(steps);
    this.writeRun(id, patch);
  }

  /** {@link updateRun}, synchronously (so that a write of several parts is atomic). */
  private writeRun(id: string, patch: Partial<RunRecord>): void {
    const run = this.runs.get(id);
    if (!run) throw new Error(`run ${id} not found`);
    const next = { ...run } as Record<string, unknown>;
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) delete next[k];
      else next[k] = copy(v);
    }
    this.runs.set(id, next as unknown as RunRecord);
  }

  async claimUnfinishedRuns(lease: RunLease, limit: number): Promise<string[]> {
    const runs = [...this.runs.values()].filter((r) => (r.status === 'queued' || r.status === 'running') && this.free(r.id, lease.now));
    return this.take(runs.slice(0, limit), lease);
  }

  async claimDueRuns(dueBy: number, lease: RunLease, limit: number): Promise<string[]> {
    const runs = [...this.runs.values()]
      .filter((r) => r.status === 'waiting' && r.wakeAt !== undefined && r.wakeAt <= dueBy && this.free(r.id, lease.now))
      .sort((a, b) => a.wakeAt! - b.wakeAt!);
    return this.take(runs.slice(0, limit), lease);
  }

  async claimRun(runId: string, lease: RunLease): Promise<boolean> {
    if (!this.runs.has(runId)) return false;
    if (!this.free(runId, lease.now) && this.leases.get(runId)?.owner !== lease.owner) return false;
    this.leases.set(runId, { owner: lease.owner, until: lease.until });
    return true;
  }

  async claimAndGetRun(runId: string, lease: RunLease): Promise<RunRecord | undefined> {
    if (!(await this.claimRun(runId, lease))) return undefined;
    return copy(this.runs.get(runId));
  }

  async renewLeases(runIds: readonly string[], lease: RunLease): Promise<string[]> {
    const held = runIds.filter((id) => this.leases.get(id)?.owner === lease.owner);
    for (const id of held) this.leases.set(id, { owner: lease.owner, until: lease.until });
    return held;
  }

  async releaseRun(runId: string, owner: string): Promise<void> {
    if (this.leases.get(runId)?.owner === owner) this.leases.delete(runId);
  }

  async releaseRuns(owner: string): Promise<void> {
    for (const [id, lease] of this.leases) {
      const status = this.runs.get(id)?.status;
      if (lease.owner === owner && status !== undefined && !FINAL_STATUSES.has(status)) this.leases.delete(id);
    }
  }

  /** No lease on the run, or one that ended before `now`. */
  private free(runId: string, now: number): boolean {
    const lease = this.leases.get(runId);
    return lease === undefined || lease.until < now;
  }

  private take(runs: RunRecord[], lease: RunLease): string[] {
    for (const run of runs) this.leases.set(run.id, { owner: lease.owner, until: lease.until });
    return runs.map((r) => r.id);
  }

  async nextWakeAt(after: number): Promise<number | undefined> {
    let next: number | undefined;
    for (const r of this.runs.values()) {
      if (r.status === 'waiting' && r.wakeAt !== undefined && r.wakeAt > after && (next === undefined || r.wakeAt < next)) next = r.wakeAt;
    }
    return next;
  }

  async listPendingRuns(automationId: string): Promise<RunRecord[]> {
    return [...this.runs.values()]
      .filter((r) => r.automationId === automationId && (r.status === 'queued' || r.status === 'waiting'))
      .map(copy);
  }

  async requestCancel(runId: string): Promise<void> {
    if (this.runs.has(runId)) this.cancelRequests.add(runId);
  }

  async listCancelRequests(): Promise<string[]> {
    // Oldest run first (creation order), whatever the order of the requests.
    return [...this.runs.values()].filter((r) => this.cancelRequests.has(r.id) && !FINAL_STATUSES.has(r.status)).map((r) => r.id);
  }

  async getSteps(runId: string): Promise<StepRecord[]> {
    return copy(this.steps.get(runId) ?? []);
  }

  async saveStep(step: StepRecord): Promise<void> {
    this.writeSteps([step]);
  }

  async saveSteps(steps: readonly StepRecord[]): Promise<void> {
    this.writeSteps(steps);
  }

  /** Saves every step, or none when one's run is not stored. */
  private writeSteps(steps: readonly StepRecord[]): void {
    const missing = steps.find((step) => !this.runs.has(step.runId));
    if (missing) throw new Error(`run ${missing.runId} not found`);
    for (const step of steps) {
      const list = this.steps.get(step.runId) ?? [];
      const at = list.findIndex((s) => s.stepId === step.stepId);
      if (at >= 0) list[at] = copy(step);
      else list.push(copy(step));
      this.steps.set(step.runId, list);
    }
  }

  async resolveWait(runId: string, stepId: string, output: unknown, now: number): Promise<boolean> {
    const run = this.runs.get(runId);
    const step = this.steps.get(runId)?.find((s) => s.stepId === stepId);
    if (!run || !step || run.status !== 'waiting' || step.status !== 'waiting') return false;
    step.status = 'succeeded';
    step.output = copy(output);
    step.finishedAt = now;
    step.durationMs = now - step.startedAt;
    run.status = 'queued';
    delete run.wakeAt;
    delete run.waitingOn;
    return true;
  }
}
