import type { RunStore } from '../../engine/src';
import { claimCases } from './run-store-claims';
import { journalCases } from './run-store-journal';
import {
  addAutomation,
  addRuns,
  automation,
  OWNER,
  rejectionOf,
  run,
  sorted,
  step,
  T0,
  WORKSPACE_A,
  WORKSPACE_B,
  type ContractContext,
  type RunStoreBackend,
} from './run-store-records';

/**
 * The conformance suite of the engine's storage port `RunStore` (engine/src/ports.ts): one set
 * of cases every implementation must pass — the in-memory `MemoryStore` and the server's
 * `ServiceRunStore` on SQLite and on PostgreSQL. Each case starts from an empty store
 * (`RunStoreBackend.fresh`) and asserts the documented behaviour of the methods it calls with
 * concrete values. Where the contract leaves an order open (e.g. the ids a claim returns), the
 * cases compare sorted ids.
 * @param name the backend's name in the describe block.
 * @param open makes the backend (once for the suite; closed after it).
 */
export function describeRunStore(name: string, open: () => Promise<RunStoreBackend>): void {
  describe(`RunStore contract: ${name}`, () => {
    let backend: RunStoreBackend | undefined;
    let store: RunStore;
    let workers: { a: string; b: string };
    const ctx: ContractContext = { store: () => store, workers: () => workers, backend: () => backend! };

    beforeAll(async () => {
      backend = await open();
      workers = { a: await backend.worker('a'), b: await backend.worker('b') };
    }, 60_000);
    afterAll(async () => {
      await backend?.close();
    });
    beforeEach(async () => {
      store = await backend!.fresh();
    });

    automationCases(ctx);
    runCases(ctx);
    journalCases(ctx);
    claimCases(ctx);
  });
}

/** Automations, versions, schedule slots and deletion. */
function automationCases(ctx: ContractContext): void {
  describe('automations and versions', () => {
    test('insertAutomation stores the record and its version-1 definition; unknown ids read as undefined', async () => {
      const store = ctx.store();
      const a = await addAutomation(store, 'auto-1');
      expect(await store.getAutomation('auto-1')).toStrictEqual(a);
      expect(await store.getDefinition('auto-1', 1)).toStrictEqual(a.definition);
      expect(await store.listVersions('auto-1')).toStrictEqual([{ version: 1, createdAt: T0 }]);
      expect(await store.getAutomation('missing')).toBeUndefined();
      expect(await store.getDefinition('auto-1', 2)).toBeUndefined();
      expect(await store.listVersions('missing')).toStrictEqual([]);
    });

    test('insertAutomation of an id already stored rejects and keeps the first record', async () => {
      const store = ctx.store();
      const first = await addAutomation(store, 'auto-1');
      expect(
        await rejectionOf(
          store.insertAutomation(automation('auto-1', { enabled: false, definition: { ...first.definition, name: 'Second' } })),
        ),
      ).toHaveProperty('message');
      expect(await store.getAutomation('auto-1')).toStrictEqual(first);
    });

    test('updateAutomation replaces the row; a grown version keeps its definition, an update at the same version keeps the kept one', async () => {
      const store = ctx.store();
      const v1 = await addAutomation(store, 'auto-1');
      const v2 = automation('auto-1', {
        version: 2,
        updatedAt: T0 + 5000,
        definition: { ...v1.definition, name: 'Version 2' },
        meta: { note: 'v2' },
      });
      await store.updateAutomation(v2);
      expect(await store.getAutomation('auto-1')).toStrictEqual(v2);
      expect(await store.getDefinition('auto-1', 1)).toStrictEqual(v1.definition);
      expect(await store.getDefinition('auto-1', 2)).toStrictEqual(v2.definition);
      expect(await store.listVersions('auto-1')).toStrictEqual([
        { version: 2, createdAt: T0 + 5000 },
        { version: 1, createdAt: T0 },
      ]);
      // Same version (e.g. disabled): the row changes, the kept version-2 definition does not.
      const disabled = { ...v2, enabled: false, updatedAt: T0 + 9000, definition: { ...v2.definition, name: 'Not a version' } };
      await store.updateAutomation(disabled);
      expect(await store.getAutomation('auto-1')).toStrictEqual(disabled);
      expect(await store.getDefinition('auto-1', 2)).toStrictEqual(v2.definition);
      expect(await store.listVersions('auto-1')).toStrictEqual([
        { version: 2, createdAt: T0 + 5000 },
        { version: 1, createdAt: T0 },
      ]);
    });

    test('updateAutomation of an unknown automation rejects and stores nothing', async () => {
      const store = ctx.store();
      expect(await rejectionOf(store.updateAutomation(automation('missing', { version: 2 })))).toHaveProperty('message');
      expect(await store.getAutomation('missing')).toBeUndefined();
      expect(await store.listVersions('missing')).toStrictEqual([]);
    });

    test('listAutomations lists one workspace; listEnabledAutomations filters by trigger type, enabled and workspace', async () => {
      const store = ctx.store();
      await addAutomation(store, 'hook-a');
      await addAutomation(store, 'hook-off', { enabled: false, createdAt: T0 + 1 });
      await addAutomation(store, 'sched-a', {
        createdAt: T0 + 2,
        definition: { name: 'S', trigger: { type: 'schedule', everyMinutes: 5 }, actions: [] },
      });
      await addAutomation(store, 'hook-b', { workspaceId: WORKSPACE_B, createdAt: T0 + 3 });
      const ids = (list: { id: string }[]) => sorted(list.map((a) => a.id));
      expect(ids(await store.listAutomations(WORKSPACE_A))).toStrictEqual(['hook-a', 'hook-off', 'sched-a']);
      expect(ids(await store.listAutomations(WORKSPACE_B))).toStrictEqual(['hook-b']);
      expect(await store.listAutomations('ws-unknown')).toStrictEqual([]);
      expect(ids(await store.listEnabledAutomations('webhook'))).toStrictEqual(['hook-a', 'hook-b']);
      expect(ids(await store.listEnabledAutomations('webhook', WORKSPACE_B))).toStrictEqual(['hook-b']);
      expect(ids(await store.listEnabledAutomations('schedule'))).toStrictEqual(['sched-a']);
      expect(ids(await store.listEnabledAutomations('schedule', WORKSPACE_B))).toStrictEqual([]);
      // An update changing the trigger type and the enabled flag moves the automation between listings.
      const current = (await store.getAutomation('hook-off'))!;
      await store.updateAutomation({
        ...current,
        enabled: true,
        version: 2,
        definition: { ...current.definition, trigger: { type: 'schedule', everyMinutes: 1 } },
      });
      expect(ids(await store.listEnabledAutomations('schedule'))).toStrictEqual(['hook-off', 'sched-a']);
      expect(ids(await store.listEnabledAutomations('webhook'))).toStrictEqual(['hook-a', 'hook-b']);
      expect((await store.listAutomations(WORKSPACE_A)).find((a) => a.id === 'hook-off')).toMatchObject({
        enabled: true,
        version: 2,
        ownerId: OWNER,
      });
    });

    test('schedule slots: none at first, then the last slot set', async () => {
      const store = ctx.store();
      await addAutomation(store, 'sched');
      await addAutomation(store, 'other');
      expect(await store.getScheduleSlot('sched')).toBeUndefined();
      await store.setScheduleSlot('sched', T0 + 60_000);
      await store.setScheduleSlot('sched', T0 + 120_000);
      expect(await store.getScheduleSlot('sched')).toBe(T0 + 120_000);
      expect(await store.getScheduleSlot('other')).toBeUndefined();
    });

    test('deleteAutomation deletes its versions, runs, steps, schedule slot, pending work and cancel requests, nothing of other automations', async () => {
      const store = ctx.store();
      const gone = await addAutomation(store, 'gone');
      await store.updateAutomation({ ...gone, version: 2, definition: { ...gone.definition, name: 'v2' } });
      await store.setScheduleSlot('gone', T0 + 60_000);
      await addAutomation(store, 'kept');
      await addRuns(store, [
        run('gone-1', 'gone', { status: 'completed' }),
        run('gone-2', 'gone', { status: 'waiting', wakeAt: T0 + 500, waitingOn: { kind: 'delay', stepId: 'd' } }),
        run('kept-1', 'kept', { createdAt: T0 + 1 }),
      ]);
      await store.saveStep(step('gone-1', 's1', { output: { ok: 1 } }));
      await store.saveStep(step('kept-1', 's1', { output: { ok: 2 } }));
      await store.requestCancel('gone-2');
      await store.deleteAutomation('gone');
      expect(await store.getAutomation('gone')).toBeUndefined();
      expect(await store.getDefinition('gone', 1)).toBeUndefined();
      expect(await store.getDefinition('gone', 2)).toBeUndefined();
      expect(await store.listVersions('gone')).toStrictEqual([]);
      expect(await store.getScheduleSlot('gone')).toBeUndefined();
      expect(await store.getRun('gone-1')).toBeUndefined();
      expect(await store.getSteps('gone-1')).toStrictEqual([]);
      expect(await store.listPendingRuns('gone')).toStrictEqual([]);
      expect(await store.listCancelRequests()).toStrictEqual([]);
      expect(await store.nextWakeAt(T0)).toBeUndefined();
      expect((await store.listRuns({ limit: 10 })).map((r) => r.id)).toStrictEqual(['kept-1']);
      expect(await store.getSteps('kept-1')).toStrictEqual([step('kept-1', 's1', { output: { ok: 2 } })]);
      // The id is free again, with a history of its own.
      await addAutomation(store, 'gone');
      expect(await store.listVersions('gone')).toStrictEqual([{ version: 1, createdAt: T0 }]);
      await expect(store.deleteAutomation('missing')).resolves.toBeUndefined();
    });
  });
}

/** Run creation, de-duplication, replays, updates and listings. */
function runCases(ctx: ContractContext): void {
  describe('runs', () => {
    test('createRun stores every field and getRun reads it back; an unknown run reads as undefined', async () => {
      const store = ctx.store();
      await addAutomation(store, 'auto');
      const full = run('run-1', 'auto', {
        status: 'waiting',
        version: 1,
        trigger: {
          type: 'webhook',
          variables: { body: { a: [1, 'x', null] } },
          eventId: 'evt-1',
          parent: { runId: 'p', stepId: 'call' },
          headers: { 'x-a': 'b' },
        },
        depth: 3,
        test: true,
        dedupeKey: 'key-1',
        createdAt: T0 + 1,
        startedAt: T0 + 2,
        wakeAt: T0 + 3,
        waitingOn: { kind: 'approval', stepId: 'approve' },
        error: { code: 'HTTP_STATUS', message: 'bad', transient: false, status: 500, details: { body: 'x' }, stepId: 'call' },
      });
      expect(await store.createRun(full)).toStrictEqual({ run: full, created: true });
      expect(await store.getRun('run-1')).toStrictEqual(full);
      expect(await store.getRun('missing')).toBeUndefined();
    });

    test('createRun of a run id already stored rejects and keeps the first run', async () => {
      const store = ctx.store();
      await addAutomation(store, 'auto');
      const first = run('run-1', 'auto');
      await addRuns(store, [first]);
      expect(await rejectionOf(store.createRun(run('run-1', 'auto', { status: 'failed', createdAt: T0 + 9 })))).toHaveProperty('message');
      expect(await store.getRun('run-1')).toStrictEqual(first);
    });

    test('createRun with dedupe returns the run of the same automation and key created at or after `since`, without saving steps or claiming', async () => {
      const store = ctx.store();
      const { a, b } = ctx.workers();
      await addAutomation(store, 'auto');
      await addAutomation(store, 'other');
      const first = run('first', 'auto', { dedupeKey: 'evt-1', createdAt: T0 + 100 });
      await addRuns(store, [first]);
      const again = await store.createRun(
        run('again', 'auto', { dedupeKey: 'evt-1', createdAt: T0 + 200 }),
        { since: T0 + 100 },
        [step('again', 's')],
        {
          owner: a,
          now: T0,
          until: T0 + 10_000,
        },
      );
      expect(again).toStrictEqual({ run: first, created: false });
      expect(await store.getRun('again')).toBeUndefined();
      expect(await store.getSteps('first')).toStrictEqual([]);
      // The lease went nowhere: the first run is still free for anyone.
      expect(await store.claimRun('first', { owner: b, now: T0, until: T0 + 10 })).toBe(true);
      // Created: a window starting after the first run, another automation, another key, or no dedupe asked.
      expect((await store.createRun(run('later', 'auto', { dedupeKey: 'evt-1', createdAt: T0 + 300 }), { since: T0 + 101 })).created).toBe(
        true,
      );
      expect((await store.createRun(run('elsewhere', 'other', { dedupeKey: 'evt-1', createdAt: T0 + 300 }), { since: 0 })).created).toBe(
        true,
      );
      expect((await store.createRun(run('new-key', 'auto', { dedupeKey: 'evt-2', createdAt: T0 + 300 }), { since: 0 })).created).toBe(true);
      expect((await store.createRun(run('no-dedupe', 'auto', { dedupeKey: 'evt-1', createdAt: T0 + 300 }))).created).toBe(true);
      expect(sorted((await store.listRuns({ automationId: 'auto', limit: 10 })).map((r) => r.id))).toStrictEqual([
        'first',
        'later',
        'new-key',
        'no-dedupe',
      ]);
    });

    test('createRun saves the steps given with the run (a replay: replayOf and the recorded journal)', async () => {
      const store = ctx.store();
      await addAutomation(store, 'auto');
      const original = run('orig', 'auto', { status: 'completed', startedAt: T0, finishedAt: T0 + 50 });
      await addRuns(store, [original]);
      const recorded = [
        step('orig', 'first', { output: { id: 1 }, finishedAt: T0 + 10, durationMs: 10 }),
        step('orig', 'second', { status: 'failed', attempts: 3, error: { code: 'X', message: 'no', transient: false } }),
      ];
      for (const s of recorded) await store.saveStep(s);
      const copied = recorded.slice(0, 1).map((s) => ({ ...s, runId: 'replay' }));
      const replay = run('replay', 'auto', { replayOf: 'orig', trigger: original.trigger, createdAt: T0 + 100 });
      expect(await store.createRun(replay, undefined, copied)).toStrictEqual({ run: replay, created: true });
      expect(await store.getRun('replay')).toStrictEqual(replay);
      expect(await store.getSteps('replay')).toStrictEqual(copied);
      expect(await store.getSteps('orig')).toStrictEqual(recorded);
    });

    test('updateRun changes the given fields; undefined values clear optional fields', async () => {
      const store = ctx.store();
      await addAutomation(store, 'auto');
      const base = run('run-1', 'auto', { status: 'running', startedAt: T0 + 1 });
      await addRuns(store, [base]);
      await store.updateRun('run-1', { status: 'waiting', wakeAt: T0 + 60_000, waitingOn: { kind: 'delay', stepId: 'pause' } });
      expect(await store.getRun('run-1')).toStrictEqual({
        ...base,
        status: 'waiting',
        wakeAt: T0 + 60_000,
        waitingOn: { kind: 'delay', stepId: 'pause' },
      });
      const error = { code: 'RUN_TIMEOUT', message: 'too long', transient: false, stepId: 'pause' };
      await store.updateRun('run-1', { status: 'failed', finishedAt: T0 + 70_000, error, wakeAt: undefined, waitingOn: undefined });
      expect(await store.getRun('run-1')).toStrictEqual({ ...base, status: 'failed', finishedAt: T0 + 70_000, error });
      await store.updateRun('run-1', { error: undefined, startedAt: undefined });
      expect(await store.getRun('run-1')).toStrictEqual({
        id: 'run-1',
        automationId: 'auto',
        version: 1,
        workspaceId: WORKSPACE_A,
        ownerId: OWNER,
        status: 'failed',
        trigger: base.trigger,
        depth: 1,
        test: false,
        createdAt: T0,
        finishedAt: T0 + 70_000,
      });
    });

    test('listRuns: newest first, filters by workspace, automation, status and creation time, limit and cursor paging', async () => {
      const store = ctx.store();
      await addAutomation(store, 'a1');
      await addAutomation(store, 'b1', { workspaceId: WORKSPACE_B });
      await addRuns(store, [
        run('r1', 'a1', { createdAt: T0 + 1, status: 'completed' }),
        run('r2', 'a1', { createdAt: T0 + 2 }),
        run('r3', 'b1', { createdAt: T0 + 3, workspaceId: WORKSPACE_B }),
        run('r4', 'a1', { createdAt: T0 + 4, status: 'failed' }),
        run('r5', 'a1', { createdAt: T0 + 5 }),
      ]);
      const ids = async (query: Parameters<RunStore['listRuns']>[0]) => (await store.listRuns(query)).map((r) => r.id);
      expect(await ids({ limit: 10 })).toStrictEqual(['r5', 'r4', 'r3', 'r2', 'r1']);
      expect(await ids({ workspaceId: WORKSPACE_A, limit: 10 })).toStrictEqual(['r5', 'r4', 'r2', 'r1']);
      expect(await ids({ automationId: 'b1', limit: 10 })).toStrictEqual(['r3']);
      expect(await ids({ status: 'queued', limit: 10 })).toStrictEqual(['r5', 'r3', 'r2']);
      expect(await ids({ workspaceId: WORKSPACE_A, status: 'failed', limit: 10 })).toStrictEqual(['r4']);
      expect(await ids({ createdFrom: T0 + 2, createdBefore: T0 + 4, limit: 10 })).toStrictEqual(['r3', 'r2']);
      expect(await ids({ createdFrom: T0 + 6, limit: 10 })).toStrictEqual([]);
      // Paging two at a time with the cursor walks every run once.
      expect(await ids({ limit: 2 })).toStrictEqual(['r5', 'r4']);
      expect(await ids({ limit: 2, beforeRunId: 'r4' })).toStrictEqual(['r3', 'r2']);
      expect(await ids({ limit: 2, beforeRunId: 'r2' })).toStrictEqual(['r1']);
      expect(await ids({ limit: 2, beforeRunId: 'r1' })).toStrictEqual([]);
      // The cursor may be a run the filters leave out; an unknown cursor lists nothing.
      expect(await ids({ automationId: 'a1', beforeRunId: 'r3', limit: 10 })).toStrictEqual(['r2', 'r1']);
      expect(await ids({ beforeRunId: 'missing', limit: 10 })).toStrictEqual([]);
      expect(await store.listRuns({ automationId: 'b1', limit: 10 })).toStrictEqual([
        run('r3', 'b1', { createdAt: T0 + 3, workspaceId: WORKSPACE_B }),
      ]);
    });

    test('listPendingRuns: the queued and waiting runs of one automation', async () => {
      const store = ctx.store();
      await addAutomation(store, 'auto');
      await addAutomation(store, 'other');
      const statuses = ['queued', 'running', 'waiting', 'completed', 'failed', 'rejected', 'cancelled', 'skipped'] as const;
      await addRuns(store, [
        ...statuses.map((status, i) => run(`run-${status}`, 'auto', { status, createdAt: T0 + i })),
        run('other-queued', 'other'),
      ]);
      expect(sorted((await store.listPendingRuns('auto')).map((r) => r.id))).toStrictEqual(['run-queued', 'run-waiting']);
      expect((await store.listPendingRuns('auto')).find((r) => r.id === 'run-waiting')).toStrictEqual(
        run('run-waiting', 'auto', { status: 'waiting', createdAt: T0 + 2 }),
      );
      expect(await store.listPendingRuns('missing')).toStrictEqual([]);
    });
  });
}
