import { addAutomation, addRuns, rejectionOf, run, step, T0, type ContractContext } from './run-store-records';

/**
 * The RunStore contract cases of the step journal: one entry per run and step id, kept in the
 * order steps first started, written one at a time (`saveStep`), several at once (`saveSteps`) or
 * with the run's status (`updateRunWithSteps`); part of the conformance suite (run-store-contract.ts).
 */
export function journalCases(ctx: ContractContext): void {
  describe('step journal', () => {
    test('saveStep inserts or replaces (runId, stepId); getSteps keeps the order steps first started', async () => {
      const store = ctx.store();
      await addAutomation(store, 'auto');
      await addRuns(store, [run('run-1', 'auto', { status: 'running' }), run('run-2', 'auto')]);
      expect(await store.getSteps('run-1')).toStrictEqual([]);
      await store.saveStep(step('run-1', 'fetch', { status: 'running', input: { url: 'https://example.com' } }));
      await store.saveStep(step('run-1', 'notify', { status: 'running', startedAt: T0 + 5 }));
      await store.saveStep(step('run-2', 'fetch', { status: 'running' }));
      const retrying = step('run-1', 'fetch', {
        status: 'retrying',
        attempts: 2,
        input: { url: 'https://example.com' },
        error: { code: 'NETWORK_ERROR', message: 'reset', transient: true },
        nextAttemptAt: T0 + 1000,
      });
      await store.saveStep(retrying);
      expect(await store.getSteps('run-1')).toStrictEqual([retrying, step('run-1', 'notify', { status: 'running', startedAt: T0 + 5 })]);
      // Replaced again without error or nextAttemptAt: those are gone.
      const done = step('run-1', 'fetch', { attempts: 3, output: { status: 200, body: [1, 2] }, finishedAt: T0 + 2000, durationMs: 2000 });
      await store.saveStep(done);
      expect(await store.getSteps('run-1')).toStrictEqual([done, step('run-1', 'notify', { status: 'running', startedAt: T0 + 5 })]);
      expect(await store.getSteps('run-2')).toStrictEqual([step('run-2', 'fetch', { status: 'running' })]);
      expect(await store.getSteps('missing')).toStrictEqual([]);
    });

    test('saveStep of a run not stored rejects', async () => {
      const store = ctx.store();
      expect(await rejectionOf(store.saveStep(step('missing', 'fetch')))).toHaveProperty('message');
      expect(await store.getSteps('missing')).toStrictEqual([]);
    });

    test('saveSteps replaces entries in place and puts new ones after the others, in the order given', async () => {
      const store = ctx.store();
      await addAutomation(store, 'auto');
      await addRuns(store, [run('run-1', 'auto', { status: 'running' }), run('run-2', 'auto', { status: 'running' })]);
      await store.saveStep(step('run-1', 'create', { status: 'running', input: { text: 'a' } }));
      await store.saveStep(step('run-2', 'create', { status: 'running' }));
      const created = step('run-1', 'create', { input: { text: 'a' }, output: { id: 't1' }, finishedAt: T0 + 10, durationMs: 10 });
      const route = step('run-1', 'route', {
        type: 'branch',
        output: { result: true },
        startedAt: T0 + 11,
        finishedAt: T0 + 11,
        durationMs: 0,
      });
      const notify = step('run-1', 'notify', { status: 'running', input: { url: 'https://example.com' }, startedAt: T0 + 12 });
      await store.saveSteps([created, route, notify]);
      expect(await store.getSteps('run-1')).toStrictEqual([created, route, notify]);
      // Entries of several runs in one write; nothing at all is a no-op.
      const other = step('run-2', 'create', { output: { id: 't2' } });
      const notified = step('run-1', 'notify', { input: { url: 'https://example.com' }, output: { status: 200 }, startedAt: T0 + 12 });
      await store.saveSteps([other, notified]);
      await store.saveSteps([]);
      expect(await store.getSteps('run-1')).toStrictEqual([created, route, notified]);
      expect(await store.getSteps('run-2')).toStrictEqual([other]);
      await store.saveStep(step('run-1', 'last', { startedAt: T0 + 20 }));
      expect((await store.getSteps('run-1')).map((s) => s.stepId)).toStrictEqual(['create', 'route', 'notify', 'last']);
    });

    test('saveSteps with a step of a run not stored rejects and writes none of them', async () => {
      const store = ctx.store();
      await addAutomation(store, 'auto');
      await addRuns(store, [run('run-1', 'auto', { status: 'running' })]);
      const first = step('run-1', 'create', { status: 'running' });
      await store.saveStep(first);
      expect(await rejectionOf(store.saveSteps([step('run-1', 'create'), step('missing', 'fetch')]))).toHaveProperty('message');
      expect(await store.getSteps('run-1')).toStrictEqual([first]);
      expect(await store.getSteps('missing')).toStrictEqual([]);
    });

    test('updateRunWithSteps writes the journal entries and the run fields together', async () => {
      const store = ctx.store();
      await addAutomation(store, 'auto');
      const [started] = await addRuns(store, [run('run-1', 'auto', { status: 'running', startedAt: T0 + 1 }), run('run-2', 'auto')]);
      await store.saveStep(step('run-1', 'create', { status: 'running' }));
      const created = step('run-1', 'create', { output: { id: 't1' }, finishedAt: T0 + 10, durationMs: 10 });
      const wait = step('run-1', 'pause', { type: 'delay', status: 'waiting', input: { until: T0 + 500 }, startedAt: T0 + 11 });
      await store.updateRunWithSteps('run-1', { status: 'waiting', wakeAt: T0 + 500, waitingOn: { kind: 'delay', stepId: 'pause' } }, [
        created,
        wait,
      ]);
      expect(await store.getRun('run-1')).toStrictEqual({
        ...started,
        status: 'waiting',
        wakeAt: T0 + 500,
        waitingOn: { kind: 'delay', stepId: 'pause' },
      });
      expect(await store.getSteps('run-1')).toStrictEqual([created, wait]);
      // A final status, clearing the wait, with the last entry.
      const waited = step('run-1', 'pause', {
        type: 'delay',
        input: { until: T0 + 500 },
        output: {},
        startedAt: T0 + 11,
        finishedAt: T0 + 500,
      });
      const error = { code: 'ACTION_FAILED', message: 'no', transient: false, stepId: 'pause' };
      await store.updateRunWithSteps('run-1', { status: 'failed', finishedAt: T0 + 600, wakeAt: undefined, waitingOn: undefined, error }, [
        waited,
      ]);
      expect(await store.getRun('run-1')).toStrictEqual({ ...started, status: 'failed', finishedAt: T0 + 600, error });
      expect(await store.getSteps('run-1')).toStrictEqual([created, waited]);
      expect(await store.getRun('run-2')).toStrictEqual(run('run-2', 'auto'));
    });

    test('updateRunWithSteps of a run not stored rejects and writes nothing', async () => {
      const store = ctx.store();
      await addAutomation(store, 'auto');
      expect(
        await rejectionOf(store.updateRunWithSteps('missing', { status: 'completed', finishedAt: T0 + 5 }, [step('missing', 'fetch')])),
      ).toHaveProperty('message');
      expect(await store.getRun('missing')).toBeUndefined();
      expect(await store.getSteps('missing')).toStrictEqual([]);
    });
  });
}
