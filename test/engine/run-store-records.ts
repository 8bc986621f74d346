import type { AutomationRecord, RunLease, RunRecord, RunStore, StepRecord } from '../../engine/src';

/**
 * Records and fixtures of the RunStore conformance suite (run-store-contract.ts): what every
 * backend must provide and small builders of automations, runs, steps and leases.
 */

/** Workspaces a backend's store must know (the SQL stores need their rows for foreign keys). */
export const WORKSPACE_A = 'ws-contract-a';
export const WORKSPACE_B = 'ws-contract-b';
/** The user owning every automation of the suite (must exist in the backend's store). */
export const OWNER = 'user-contract-owner';
/** The suite's base time (ms since the epoch); every time is an offset from it. */
export const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);

/** One backend the conformance suite runs against. */
export interface RunStoreBackend {
  /**
   * A store without automations, runs or steps (a new one, or the backend's one emptied), in which
   * {@link WORKSPACE_A}, {@link WORKSPACE_B} and {@link OWNER} exist.
   */
  fresh(): Promise<RunStore>;
  /**
   * A worker id (`RunLease.owner`) this backend treats as a live engine for the rest of the suite
   * (PostgreSQL: its presence lock is held, see server/src/platform/db/postgres/presence.ts).
   */
  worker(name: string): Promise<string>;
  /** Frees everything the backend made (files, databases, connections). */
  close(): Promise<void>;
}

/** What a group of contract cases reads in its tests (set by `describeRunStore` before each test). */
export interface ContractContext {
  /** The test's fresh store. */
  store(): RunStore;
  /** Two distinct live worker ids. */
  workers(): { a: string; b: string };
  /** The backend (for extra worker ids). */
  backend(): RunStoreBackend;
}

/** A version-1 automation in {@link WORKSPACE_A} with a webhook trigger, created at {@link T0}; `over` replaces fields. */
export function automation(id: string, over: Partial<AutomationRecord> = {}): AutomationRecord {
  return {
    id,
    workspaceId: WORKSPACE_A,
    ownerId: OWNER,
    version: 1,
    enabled: true,
    definition: { name: `Automation ${id}`, trigger: { type: 'webhook' }, actions: [] },
    meta: { note: 'host data' },
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

/** A queued version-1 run of `automationId` in {@link WORKSPACE_A}, created at {@link T0}; `over` replaces fields. */
export function run(id: string, automationId: string, over: Partial<RunRecord> = {}): RunRecord {
  return {
    id,
    automationId,
    version: 1,
    workspaceId: WORKSPACE_A,
    ownerId: OWNER,
    status: 'queued',
    trigger: { type: 'webhook', variables: { n: 1 } },
    depth: 1,
    test: false,
    createdAt: T0,
    ...over,
  };
}

/** A succeeded `http.request` step of one attempt started at {@link T0}; `over` replaces fields. */
export function step(runId: string, stepId: string, over: Partial<StepRecord> = {}): StepRecord {
  return { runId, stepId, type: 'http.request', status: 'succeeded', attempts: 1, startedAt: T0, ...over };
}

/** A lease of `owner` taken at `T0 + now` that holds until `T0 + until` (offsets in ms). */
export function lease(owner: string, now: number, until: number): RunLease {
  return { owner, now: T0 + now, until: T0 + until };
}

/** Inserts automation `id` (defaults of {@link automation}, `over` replaces fields). */
export async function addAutomation(store: RunStore, id: string, over: Partial<AutomationRecord> = {}): Promise<AutomationRecord> {
  const record = automation(id, over);
  await store.insertAutomation(record);
  return record;
}

/** Creates runs in this order (so the first one is the oldest); resolves to the records. */
export async function addRuns(store: RunStore, runs: RunRecord[]): Promise<RunRecord[]> {
  for (const r of runs) expect((await store.createRun(r)).created).toBe(true);
  return runs;
}

/** Ids sorted (for results whose order the contract leaves open). */
export function sorted(ids: readonly string[]): string[] {
  return [...ids].sort();
}

/**
 * What `promise` rejects with; throws when it resolves. Not `rejects.toThrow()`: a store's error may
 * come from another realm (better-sqlite3, a native module, keeps the Error class of the first test
 * file that loaded it in this jest worker), which `toThrow` does not take for an error.
 */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, but the promise resolved');
}
