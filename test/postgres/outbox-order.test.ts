import type pg from 'pg';
import { appendEvent, appendEvents, OUTBOX_APPEND_LOCK, readEvents } from '../../server/src/modules/events/outbox';
import { migratePostgres } from '../../server/src/platform/db/postgres/migrate';
import { createPostgresPool } from '../../server/src/platform/db/postgres/pool';
import type { Query } from '../../server/src/platform/db/query';
import { postgresStore, type Store } from '../../server/src/platform/db/store';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres';

/**
 * The outbox on PostgreSQL (server/src/modules/events/outbox.ts): appends of concurrent
 * transactions commit in `seq` order, so a reader that follows the outbox by `seq` never passes
 * an event that commits later. The append takes the append lock in its own statement.
 */
describe('outbox appends on PostgreSQL', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let store: Store;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPostgresPool(database.url, { max: 12 });
    await migratePostgres(pool);
    store = postgresStore(pool);
  });

  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  /** True while another transaction holds the append lock (asked on another connection). */
  function* lockHeldElsewhere(): Query<boolean> {
    const row = yield* store.sql.get<{ got: boolean }>('SELECT pg_try_advisory_xact_lock(?) AS got', [OUTBOX_APPEND_LOCK]);
    return !row!.got;
  }

  test('the append takes the lock itself, and holds it to the commit', async () => {
    const seen = await store.run(
      store.sql.transaction(function* (tx) {
        const before = yield* lockHeldElsewhere();
        yield* appendEvent(tx, { type: 'task.added', workspaceId: 'w1', payload: { n: 0 } }, Date.now());
        const after = yield* lockHeldElsewhere();
        // A second append in the same transaction neither waits for nor takes the lock again.
        yield* appendEvents(
          tx,
          [1, 2].map((n) => ({ type: 'task.added' as const, workspaceId: 'w1', payload: { n } })),
          Date.now(),
        );
        return [before, after];
      }),
    );
    expect(seen).toEqual([false, true]);
    expect(await store.run(lockHeldElsewhere())).toBe(false);
    const events = await store.run(readEvents(store.sql, 0, 10));
    expect(events.map((e) => e.payload.n)).toEqual([0, 1, 2]);
  });

  test('a reader following seq sees every event of concurrent transactions that commit out of order', async () => {
    const start = (await store.run(readEvents(store.sql, 0, 1000))).at(-1)?.seq ?? 0;
    const writers = 10;
    const perWriter = 8;
    let writing = true;
    const seen: number[] = [];
    const reader = (async () => {
      let cursor = start;
      for (;;) {
        const done = !writing;
        const events = await store.run(readEvents(store.sql, cursor, 1000));
        for (const event of events) seen.push(event.payload.n as number);
        cursor = events.at(-1)?.seq ?? cursor;
        if (done) return;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    // Each transaction appends, then waits a random moment before committing: without the lock,
    // a later seq would often commit first and the reader would pass the earlier one for good.
    await Promise.all(
      Array.from({ length: writers }, async (_, writer) => {
        for (let i = 0; i < perWriter; i++) {
          await store.run(
            store.sql.transaction(function* (tx) {
              yield* appendEvent(tx, { type: 'task.added', workspaceId: 'w1', payload: { n: writer * perWriter + i } }, Date.now());
              yield new Promise((resolve) => setTimeout(resolve, Math.random() * 4));
            }),
          );
        }
      }),
    );
    writing = false;
    await reader;
    expect(seen.length).toBe(writers * perWriter);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: writers * perWriter }, (_, n) => n));
  });
});
