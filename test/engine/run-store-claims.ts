import { addAutomation, addRuns, lease, run, sorted, step, T0, type ContractContext } from './run-store-records';

/**
 * The RunStore contract cases of claims and leases (several engines on one store), waits,
 * wake-ups and cancel requests; part of the conformance suite (run-store-contract.ts).
 * Lease times are offsets from `T0` (see {@link lease}); a lease is free once it ended before
 * the claimer's `now` (`until < now`).
 */
export function claimCases(ctx: ContractContext): void {
  describe('claims and leases', () => {
    test('claimUnfinishedRuns: queued and running runs, oldest first, up to the limit; a second worker sees only the rest', async () => {
      const store = ctx.store();
      const { a, b } = ctx.workers();
      await addAutomation(store, 'auto');
      await addRuns(store, [
        run('q1', 'auto', { createdAt: T0 + 1 }),
        run('r2', 'auto', { status: 'running', createdAt: T0 + 2, startedAt: T0 + 2 }),
        run('w3', 'auto', { status: 'waiting', createdAt: T0 + 3, wakeAt: T0 }),
        run('c4', 'auto', { status: 'completed', createdAt: T0 + 4 }),
        run('q5', 'auto', { createdAt: T0 + 5 }),
      ]);
      expect(sorted(await store.claimUnfinishedRuns(lease(a, 0, 1000), 2))).toStrictEqual(['q1', 'r2']);
      expect(await store.claimUnfinishedRuns(lease(b, 10, 5000), 10)).toStrictEqual(['q5']);
      expect(await store.claimUnfinishedRuns(lease(b, 20, 5000), 10)).toStrictEqual([]);
      // A worker does not claim again what it holds.
      expect(await store.claimUnfinishedRuns(lease(a, 30, 1000), 10)).toStrictEqual([]);
      // Free only once the lease ended before now: not at its last millisecond, the one after.
      expect(await store.claimUnfinishedRuns(lease(b, 1000, 5000), 10)).toStrictEqual([]);
      expect(sorted(await store.claimUnfinishedRuns(lease(b, 1001, 5000), 10))).toStrictEqual(['q1', 'r2']);
      expect(await store.claimUnfinishedRuns(lease(a, 1002, 9000), 10)).toStrictEqual([]);
      // Claiming changes no run.
      expect(await store.getRun('q1')).toStrictEqual(run('q1', 'auto', { createdAt: T0 + 1 }));
    });

    test('claimDueRuns: waiting runs with wakeAt <= dueBy, soonest first, up to the limit, free ones only', async () => {
      const store = ctx.store();
      const { a, b } = ctx.workers();
      await addAutomation(store, 'auto');
      const waiting = (id: string, wakeAt: number | undefined, createdAt: number) =>
        run(id, 'auto', {
          status: 'waiting',
          createdAt: T0 + createdAt,
          wakeAt: wakeAt === undefined ? undefined : T0 + wakeAt,
          waitingOn: { kind: 'delay', stepId: 'd' },
        });
      await addRuns(store, [
        waiting('w300', 300, 1),
        waiting('w100', 100, 2),
        waiting('w200', 200, 3),
        waiting('w900', 900, 4),
        waiting('w-no-timer', undefined, 5),
        run('queued-50', 'auto', { createdAt: T0 + 6, wakeAt: T0 + 50 }),
      ]);
      expect(sorted(await store.claimDueRuns(T0 + 300, lease(a, 0, 1000), 2))).toStrictEqual(['w100', 'w200']);
      expect(await store.claimDueRuns(T0 + 300, lease(b, 0, 5000), 10)).toStrictEqual(['w300']);
      expect(await store.claimDueRuns(T0 + 300, lease(b, 0, 5000), 10)).toStrictEqual([]);
      expect(await store.claimDueRuns(T0 + 10_000, lease(b, 0, 5000), 10)).toStrictEqual(['w900']);
      // Once A's leases ended, B takes its runs; a run without timer is never due.
      expect(sorted(await store.claimDueRuns(T0 + 10_000, lease(b, 1001, 5000), 10))).toStrictEqual(['w100', 'w200']);
      expect(sorted(await store.claimDueRuns(T0 + 10_000, lease(a, 6000, 9000), 10))).toStrictEqual(['w100', 'w200', 'w300', 'w900']);
    });

    test('claimRun: a free run or one the worker holds, whatever its status; false while another worker holds it or when unknown', async () => {
      const store = ctx.store();
      const { a, b } = ctx.workers();
      await addAutomation(store, 'auto');
      await addRuns(store, [run('x', 'auto'), run('done', 'auto', { status: 'completed', createdAt: T0 + 1 })]);
      expect(await store.claimRun('x', lease(a, 0, 100))).toBe(true);
      expect(await store.claimRun('x', lease(b, 50, 1000))).toBe(false);
      // The holder claims again: its lease now holds until 500.
      expect(await store.claimRun('x', lease(a, 50, 500))).toBe(true);
      expect(await store.claimRun('x', lease(b, 400, 1000))).toBe(false);
      expect(await store.claimRun('x', lease(b, 500, 1000))).toBe(false);
      expect(await store.claimRun('x', lease(b, 501, 1000))).toBe(true);
      expect(await store.claimUnfinishedRuns(lease(a, 600, 2000), 10)).toStrictEqual([]);
      expect(await store.claimRun('done', lease(a, 0, 100))).toBe(true);
      expect(await store.claimRun('missing', lease(a, 0, 100))).toBe(false);
    });

    test('claimAndGetRun: claims as claimRun does and resolves to the run as stored; undefined while another worker holds it or when unknown', async () => {
      const store = ctx.store();
      const { a, b } = ctx.workers();
      await addAutomation(store, 'auto');
      const [x, done] = await addRuns(store, [
        run('x', 'auto', { trigger: { type: 'webhook', variables: { n: 2 }, eventId: 'req-1' } }),
        run('done', 'auto', { status: 'completed', createdAt: T0 + 1, finishedAt: T0 + 5 }),
      ]);
      expect(await store.claimAndGetRun('x', lease(a, 0, 100))).toStrictEqual(x);
      expect(await store.claimAndGetRun('x', lease(b, 50, 1000))).toBeUndefined();
      expect(await store.claimRun('x', lease(b, 50, 1000))).toBe(false);
      // The holder claims again: its lease now holds until 500.
      await store.updateRun('x', { status: 'running', startedAt: T0 + 60 });
      expect(await store.claimAndGetRun('x', lease(a, 60, 500))).toStrictEqual({ ...x, status: 'running', startedAt: T0 + 60 });
      expect(await store.claimAndGetRun('x', lease(b, 500, 1000))).toBeUndefined();
      expect(await store.claimAndGetRun('x', lease(b, 501, 1000))).toStrictEqual({ ...x, status: 'running', startedAt: T0 + 60 });
      expect(await store.claimRun('x', lease(a, 502, 1000))).toBe(false);
      expect(await store.claimAndGetRun('done', lease(a, 0, 100))).toStrictEqual(done);
      expect(await store.claimAndGetRun('missing', lease(a, 0, 100))).toBeUndefined();
    });

    test('createRun with a lease stores the run claimed by that worker', async () => {
      const store = ctx.store();
      const { a, b } = ctx.workers();
      await addAutomation(store, 'auto');
      expect((await store.createRun(run('mine', 'auto'), undefined, [], lease(a, 0, 1000))).created).toBe(true);
      expect(await store.claimUnfinishedRuns(lease(b, 1, 2000), 10)).toStrictEqual([]);
      expect(await store.claimRun('mine', lease(b, 1, 2000))).toBe(false);
      expect(await store.claimRun('mine', lease(a, 1, 2000))).toBe(true);
    });

    test('renewLeases extends the leases the worker still holds and resolves to their ids', async () => {
      const store = ctx.store();
      const { a, b } = ctx.workers();
      await addAutomation(store, 'auto');
      await addRuns(store, [
        run('x', 'auto'),
        run('y', 'auto', { createdAt: T0 + 1 }),
        run('z', 'auto', { createdAt: T0 + 2 }),
        run('free', 'auto', { createdAt: T0 + 3 }),
      ]);
      expect(await store.claimRun('x', lease(a, 0, 100))).toBe(true);
      expect(await store.claimRun('y', lease(a, 0, 100))).toBe(true);
      expect(await store.claimRun('z', lease(b, 0, 100))).toBe(true);
      expect(sorted(await store.renewLeases(['x', 'y', 'z', 'free', 'missing'], lease(a, 50, 1000)))).toStrictEqual(['x', 'y']);
      // Renewed: still held past the old end; z (B's) and free were not touched by A.
      expect(await store.claimRun('x', lease(b, 500, 3000))).toBe(false);
      expect(await store.claimRun('free', lease(b, 500, 3000))).toBe(true);
      expect(await store.claimRun('z', lease(a, 101, 3000))).toBe(true);
      // x renewed once more; y's lease ended and B took it: A no longer holds it.
      expect(await store.renewLeases(['x'], lease(a, 900, 3000))).toStrictEqual(['x']);
      expect(await store.claimRun('y', lease(b, 1001, 3000))).toBe(true);
      expect(await store.renewLeases(['x', 'y'], lease(a, 1001, 5000))).toStrictEqual(['x']);
      expect(await store.renewLeases([], lease(a, 1001, 5000))).toStrictEqual([]);
    });

    test('releaseRun frees the run only when the owner given holds it', async () => {
      const store = ctx.store();
      const { a, b } = ctx.workers();
      await addAutomation(store, 'auto');
      await addRuns(store, [run('x', 'auto')]);
      expect(await store.claimRun('x', lease(a, 0, 1000))).toBe(true);
      await store.releaseRun('x', b);
      expect(await store.claimRun('x', lease(b, 1, 2000))).toBe(false);
      await store.releaseRun('x', a);
      expect(await store.claimUnfinishedRuns(lease(b, 1, 2000), 10)).toStrictEqual(['x']);
      await expect(store.releaseRun('missing', a)).resolves.toBeUndefined();
    });

    test('releaseRuns frees every lease the owner holds on runs not final, and no other lease', async () => {
      const store = ctx.store();
      const { a, b } = ctx.workers();
      await addAutomation(store, 'auto');
      await addRuns(store, [
        run('queued', 'auto'),
        run('running', 'auto', { status: 'running', createdAt: T0 + 1 }),
        run('waiting', 'auto', { status: 'waiting', createdAt: T0 + 2, wakeAt: T0 + 10 }),
        run('finished', 'auto', { createdAt: T0 + 3 }),
        run('theirs', 'auto', { createdAt: T0 + 4 }),
      ]);
      for (const id of ['queued', 'running', 'waiting', 'finished']) expect(await store.claimRun(id, lease(a, 0, 1000))).toBe(true);
      expect(await store.claimRun('theirs', lease(b, 0, 1000))).toBe(true);
      await store.updateRun('finished', { status: 'completed', finishedAt: T0 + 5 });
      await store.releaseRuns(a);
      const c = await ctx.backend().worker('c');
      expect(sorted(await store.claimUnfinishedRuns(lease(c, 1, 2000), 10))).toStrictEqual(['queued', 'running']);
      expect(await store.claimDueRuns(T0 + 10, lease(c, 1, 2000), 10)).toStrictEqual(['waiting']);
      expect(await store.claimRun('theirs', lease(c, 1, 2000))).toBe(false);
      expect(await store.claimRun('finished', lease(c, 1, 2000))).toBe(false);
    });
  });

  describe('waits, wake-ups and cancel requests', () => {
    test('nextWakeAt: the smallest wakeAt after `after` among waiting runs', async () => {
      const store = ctx.store();
      await addAutomation(store, 'auto');
      expect(await store.nextWakeAt(0)).toBeUndefined();
      await addRuns(store, [
        run('w200', 'auto', { status: 'waiting', wakeAt: T0 + 200 }),
        run('w100', 'auto', { status: 'waiting', wakeAt: T0 + 100, createdAt: T0 + 1 }),
        run('queued-50', 'auto', { wakeAt: T0 + 50, createdAt: T0 + 2 }),
        run('w-no-timer', 'auto', { status: 'waiting', createdAt: T0 + 3 }),
      ]);
      expect(await store.nextWakeAt(T0)).toBe(T0 + 100);
      expect(await store.nextWakeAt(T0 + 100)).toBe(T0 + 200);
      expect(await store.nextWakeAt(T0 + 200)).toBeUndefined();
      await store.updateRun('w100', { status: 'queued', wakeAt: undefined });
      expect(await store.nextWakeAt(T0)).toBe(T0 + 200);
    });

    test('resolveWait: a waiting step of a waiting run succeeds with the output and the run is queued without timer, once', async () => {
      const store = ctx.store();
      await addAutomation(store, 'auto');
      const waiting = run('w', 'auto', {
        status: 'waiting',
        startedAt: T0,
        wakeAt: T0 + 5000,
        waitingOn: { kind: 'approval', stepId: 'approve' },
      });
      await addRuns(store, [waiting, run('busy', 'auto', { status: 'running', createdAt: T0 + 1 })]);
      const asked = step('w', 'approve', { type: 'approval', status: 'waiting', startedAt: T0 + 10, input: { message: 'ok?' } });
      await store.saveStep(step('w', 'before', { output: { n: 1 } }));
      await store.saveStep(asked);
      await store.saveStep(step('busy', 'approve', { type: 'approval', status: 'waiting' }));
      expect(await store.resolveWait('w', 'approve', { approved: true, by: 'user-1' }, T0 + 70)).toBe(true);
      const resolved = { ...asked, status: 'succeeded', output: { approved: true, by: 'user-1' }, finishedAt: T0 + 70, durationMs: 60 };
      expect(await store.getSteps('w')).toStrictEqual([step('w', 'before', { output: { n: 1 } }), resolved]);
      expect(await store.getRun('w')).toStrictEqual(run('w', 'auto', { status: 'queued', startedAt: T0 }));
      // Decided already: false, nothing changes.
      expect(await store.resolveWait('w', 'approve', { approved: false }, T0 + 80)).toBe(false);
      expect((await store.getSteps('w'))[1]).toStrictEqual(resolved);
      // A run not waiting, a step not waiting, unknown ones: false.
      expect(await store.resolveWait('busy', 'approve', { approved: true }, T0 + 90)).toBe(false);
      expect(await store.getSteps('busy')).toStrictEqual([step('busy', 'approve', { type: 'approval', status: 'waiting' })]);
      await store.updateRun('w', { status: 'waiting', wakeAt: T0 + 9000, waitingOn: { kind: 'delay', stepId: 'before' } });
      expect(await store.resolveWait('w', 'before', 'x', T0 + 100)).toBe(false);
      expect(await store.resolveWait('w', 'missing', 'x', T0 + 100)).toBe(false);
      expect(await store.resolveWait('missing', 'approve', 'x', T0 + 100)).toBe(false);
      expect(await store.getRun('w')).toMatchObject({ status: 'waiting', wakeAt: T0 + 9000 });
    });

    test('requestCancel and listCancelRequests: runs not final whose cancellation was asked, oldest first', async () => {
      const store = ctx.store();
      await addAutomation(store, 'auto');
      await addRuns(store, [
        run('queued', 'auto', { createdAt: T0 + 1 }),
        run('running', 'auto', { status: 'running', createdAt: T0 + 2 }),
        run('waiting', 'auto', { status: 'waiting', createdAt: T0 + 3 }),
        run('completed', 'auto', { status: 'completed', createdAt: T0 + 4 }),
        run('not-asked', 'auto', { createdAt: T0 + 5 }),
      ]);
      expect(await store.listCancelRequests()).toStrictEqual([]);
      for (const id of ['waiting', 'completed', 'queued', 'running', 'missing']) await store.requestCancel(id);
      expect(await store.listCancelRequests()).toStrictEqual(['queued', 'running', 'waiting']);
      await store.updateRun('running', { status: 'cancelled', finishedAt: T0 + 10 });
      expect(await store.listCancelRequests()).toStrictEqual(['queued', 'waiting']);
      // A request changes no run.
      expect(await store.getRun('queued')).toStrictEqual(run('queued', 'auto', { createdAt: T0 + 1 }));
    });
  });
}
