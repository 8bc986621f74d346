import { describeRunStore } from '../engine/run-store-contract';
import { automation, lease, run, T0, type RunStoreBackend } from '../engine/run-store-records';
import { onPostgres } from '../helpers/test-store';
import { postgresBackend } from '../automations/run-store-sql';
import type { RunStore } from '../../engine/src';

/**
 * The RunStore conformance suite (test/engine/run-store-contract.ts) on the server's store over a
 * PostgreSQL database of its own, dropped at the end. Runs only on a PostgreSQL run (`DATABASE_URL`
 * set, e.g. `npm run test:postgres`).
 */
(onPostgres() ? describe : describe.skip)('ServiceRunStore on PostgreSQL', () => {
  describeRunStore('ServiceRunStore (PostgreSQL)', postgresBackend);

  // Beyond the port's contract, PostgreSQL only (server/src/platform/db/postgres/presence.ts).
  describe('leases of a process that is gone', () => {
    let backend: RunStoreBackend;
    beforeAll(async () => {
      backend = await postgresBackend();
    }, 60_000);
    afterAll(() => backend.close());

    test('a run leased by a worker id whose presence lock nobody holds is free at once', async () => {
      const store: RunStore = await backend.fresh();
      const live = await backend.worker('live');
      await store.insertAutomation(automation('auto'));
      await store.createRun(run('orphan', 'auto'), undefined, [], lease('123:dead-host:1', 0, 1_000_000));
      await store.createRun(run('held', 'auto', { createdAt: T0 + 1 }), undefined, [], lease(live, 0, 1_000_000));
      expect(await store.claimUnfinishedRuns(lease(await backend.worker('other'), 1, 2000), 10)).toStrictEqual(['orphan']);
    });
  });
});
