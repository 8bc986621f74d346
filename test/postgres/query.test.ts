import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { openDatabase, transaction, type Db } from '../../server/src/platform/db/connection';
import { AsyncQueryError, isUniqueViolation, runSync, type Query, type Sql } from '../../server/src/platform/db/query';
import { migratePostgres } from '../../server/src/platform/db/postgres/migrate';
import { createPostgresPool } from '../../server/src/platform/db/postgres/pool';
import { MAX_TRANSACTION_ATTEMPTS, numberPlaceholders } from '../../server/src/platform/db/postgres/sql';
import { toServiceError } from '../../server/src/http/error-handler';
import { postgresStore, sqliteStore, type Store } from '../../server/src/platform/db/store';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres';

/**
 * The storage seam (server/src/platform/db/query.ts): the same operations, written once, run on
 * the embedded SQLite store and on PostgreSQL with the same results; transactions, savepoints,
 * constraint errors and PostgreSQL's serialization retry.
 */

const T0 = 1_700_000_000_000;

function* addUser(q: Sql, id: string, handle: string): Query<void> {
  yield* q.run('INSERT INTO users (id, handle, display_name, rate_tier, created_at) VALUES (?, ?, ?, ?, ?)', [
    id,
    handle,
    handle,
    'standard',
    T0,
  ]);
}

function* userHandles(q: Sql): Query<string[]> {
  const rows = yield* q.all<{ handle: string }>('SELECT handle FROM users ORDER BY handle');
  return rows.map((r) => r.handle);
}

function* countUsers(q: Sql): Query<number> {
  const row = yield* q.get<{ n: number }>('SELECT COUNT(*) AS n FROM users');
  return row!.n;
}

/** Adds users in one transaction, then fails when `fail` is set: nothing of it may stay. */
function* addUsersThen(q: Sql, ids: string[], fail: boolean): Query<void> {
  yield* q.transaction(function* (tx) {
    for (const id of ids) yield* addUser(tx, id, id);
    if (fail) throw new Error('refused');
  });
}

describe.each(['sqlite', 'postgres'] as const)('storage operations on %s', (dialect) => {
  let store: Store;
  let db: Db | undefined;
  let pool: pg.Pool | undefined;
  let database: TestDatabase | undefined;
  let dir: string | undefined;

  beforeAll(async () => {
    if (dialect === 'sqlite') {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskspace-query-'));
      db = openDatabase(dir);
      store = sqliteStore(db);
    } else {
      database = await createTestDatabase();
      pool = createPostgresPool(database.url, { max: 4 });
      await migratePostgres(pool);
      store = postgresStore(pool);
    }
  });

  afterAll(async () => {
    db?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    await pool?.end();
    await database?.drop();
  });

  beforeEach(async () => {
    await store.run(store.sql.run('DELETE FROM users'));
  });

  test('reads back what it writes, with ? placeholders and camelCase aliases', async () => {
    await store.run(addUser(store.sql, 'u1', 'bea'));
    await store.run(addUser(store.sql, 'u2', 'al'));
    expect(await store.run(userHandles(store.sql))).toEqual(['al', 'bea']);
    const row = await store.run(store.sql.get('SELECT id, created_at AS "createdAt" FROM users WHERE handle = ?', ['bea']));
    expect(row).toEqual({ id: 'u1', createdAt: T0 });
    expect(await store.run(store.sql.get('SELECT id FROM users WHERE handle = ?', ['nobody']))).toBeUndefined();
    const { changes } = await store.run(store.sql.run('UPDATE users SET display_name = ? WHERE id IN (?, ?)', ['x', 'u1', 'u2']));
    expect(changes).toBe(2);
  });

  test('a transaction that throws leaves nothing behind; one that returns commits', async () => {
    await expect(store.run(addUsersThen(store.sql, ['a1', 'a2'], true))).rejects.toThrow('refused');
    expect(await store.run(countUsers(store.sql))).toBe(0);
    await store.run(addUsersThen(store.sql, ['a1', 'a2'], false));
    expect(await store.run(countUsers(store.sql))).toBe(2);
  });

  test('a nested transaction that throws rolls back alone', async () => {
    await store.run(
      store.sql.transaction(function* (tx) {
        yield* addUser(tx, 'outer', 'outer');
        try {
          yield* tx.transaction(function* (inner) {
            yield* addUser(inner, 'inner', 'inner');
            throw new Error('inner refused');
          });
        } catch {
          // the savepoint is gone; the outer transaction goes on
        }
        yield* addUser(tx, 'after', 'after');
      }),
    );
    expect(await store.run(userHandles(store.sql))).toEqual(['after', 'outer']);
  });

  test('a run of sibling savepoints (a group of writes) keeps the ones that returned and undoes the ones that threw', async () => {
    // On PostgreSQL a savepoint that ended well is released with the next statement (or by COMMIT).
    const write = (q: Sql, id: string, fail: boolean) =>
      q.transaction(function* (inner) {
        yield* addUser(inner, id, id);
        if (fail) throw new Error(`${id} refused`);
      });
    await store.run(
      store.sql.transaction(function* (tx) {
        for (const [id, fail] of [
          ['w1', false],
          ['w2', true],
          ['w3', false],
          ['w4', false],
          ['w5', true],
        ] as const) {
          try {
            yield* write(tx, id, fail);
          } catch {
            // this write alone is undone
          }
        }
        yield* write(tx, 'w6', false);
        // A plain statement right after a savepoint that ended well sees its work.
        expect(yield* countUsers(tx)).toBe(4);
        yield* addUser(tx, 'w7', 'w7');
        try {
          yield* write(tx, 'w8', true);
        } catch {
          // undone
        }
      }),
    );
    expect(await store.run(userHandles(store.sql))).toEqual(['w1', 'w3', 'w4', 'w6', 'w7']);
  });

  test('transactions nested two deep, begun first in their savepoint or later, each undo only their own work', async () => {
    const refuse = (q: Sql, id: string) =>
      q.transaction(function* (inner) {
        yield* addUser(inner, id, id);
        throw new Error(`${id} refused`);
      });
    const kept = await store.run(
      store.sql.transaction(function* (tx) {
        yield* addUser(tx, 'top', 'top');
        // A grouped write: a savepoint whose first act is a transaction of its own.
        yield* tx.transaction(function* (write) {
          try {
            yield* refuse(write, 'first');
          } catch {
            // undone: the savepoint is as it was, and the write goes on in it
          }
          yield* write.transaction(function* (inner) {
            yield* addUser(inner, 'second', 'second');
          });
          try {
            yield* refuse(write, 'third');
          } catch {
            // undone alone: 'second' stays
          }
          yield* addUser(write, 'fourth', 'fourth');
        });
        try {
          yield* tx.transaction(function* (write) {
            yield* write.transaction(function* (inner) {
              yield* addUser(inner, 'fifth', 'fifth');
            });
            throw new Error('the whole write refused');
          });
        } catch {
          // the write and the transaction begun first in it are undone together
        }
        return yield* userHandles(tx);
      }),
    );
    expect(kept).toEqual(['fourth', 'second', 'top']);
    expect(await store.run(userHandles(store.sql))).toEqual(['fourth', 'second', 'top']);
  });

  test('a duplicate key is recognised as a unique violation, and the transaction is rolled back', async () => {
    await store.run(addUser(store.sql, 'd1', 'dup'));
    const error = await store.run(addUsersThen(store.sql, ['d2', 'd1'], false)).catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(new Error('other'))).toBe(false);
    expect(await store.run(userHandles(store.sql))).toEqual(['dup']);
  });

  test('runSync runs an operation only where statements do not wait', async () => {
    if (dialect === 'sqlite') {
      expect(runSync(countUsers(store.sql))).toBe(0);
      // Operations and the connection's own transaction() nest in either order.
      transaction(db!, () => runSync(addUsersThen(store.sql, ['s1'], false)));
      expect(runSync(countUsers(store.sql))).toBe(1);
    } else {
      expect(() => runSync(countUsers(store.sql))).toThrow(AsyncQueryError);
      // An abandoned transaction is rolled back and its connection returned to the pool.
      expect(() => runSync(addUsersThen(store.sql, ['s1'], false))).toThrow(AsyncQueryError);
      await expect(store.run(countUsers(store.sql))).resolves.toBe(0);
    }
  });
});

describe('PostgreSQL transactions', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let store: Store;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPostgresPool(database.url, { max: 8 });
    await migratePostgres(pool);
    store = postgresStore(pool);
  });

  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  test('concurrent read-modify-write transactions are serialized: none of the increments is lost', async () => {
    await store.run(
      store.sql.run('INSERT INTO users (id, handle, display_name, rate_tier, created_at) VALUES (?, ?, ?, ?, ?)', [
        'c',
        'counter',
        '0',
        'standard',
        T0,
      ]),
    );
    let attempts = 0;
    function* increment(q: Sql): Query<void> {
      yield* q.transaction(function* (tx) {
        attempts++;
        const row = yield* tx.get<{ n: string }>('SELECT display_name AS n FROM users WHERE id = ?', ['c']);
        yield* tx.run('UPDATE users SET display_name = ? WHERE id = ?', [String(Number(row!.n) + 1), 'c']);
      });
    }
    await Promise.all(Array.from({ length: 6 }, () => store.run(increment(store.sql))));
    const row = await store.run(store.sql.get<{ n: string }>('SELECT display_name AS n FROM users WHERE id = ?', ['c']));
    expect(row!.n).toBe('6');
    // At least one transaction read a value another one then changed, and ran again.
    expect(attempts).toBeGreaterThan(6);
  });

  test('a transaction that keeps colliding is given up after the last attempt and answered 503 BUSY', async () => {
    let attempts = 0;
    const collide = store.sql.transaction(function* (tx) {
      attempts++;
      yield* tx.run('UPDATE users SET display_name = display_name WHERE id = ?', ['nobody']);
      throw Object.assign(new Error('could not serialize access'), { code: '40001' });
    });
    const error = await store.run(collide).catch((e: unknown) => e);
    expect(attempts).toBe(MAX_TRANSACTION_ATTEMPTS);
    const mapped = toServiceError(error as Error);
    expect([mapped.statusCode, mapped.code]).toEqual([503, 'BUSY']);
    expect(toServiceError(new Error('anything else')).statusCode).toBe(500);
  });

  test('advisory locks: held to the end of the transaction, taken again after a savepoint that took one is rolled back; the lock option takes one with BEGIN', async () => {
    const KEY = 7_461_999;
    // Asked on another connection of the pool: true while a transaction holds the lock.
    function* held(lock: number | string): Query<boolean> {
      const row = yield* store.sql.get<{ got: boolean }>(
        typeof lock === 'number'
          ? 'SELECT pg_try_advisory_xact_lock(?) AS got'
          : 'SELECT pg_try_advisory_xact_lock(hashtextextended(?, 0)) AS got',
        [lock],
      );
      return !row!.got;
    }
    const seen = await store.run(
      store.sql.transaction(function* (tx) {
        const before = yield* held(KEY);
        try {
          yield* tx.transaction(function* (inner) {
            yield* inner.lockForTransaction(KEY);
            throw new Error('undone');
          });
        } catch {
          // the savepoint, and the lock it took, are rolled back
        }
        const afterRollback = yield* held(KEY);
        yield* tx.lockForTransaction(KEY);
        yield* tx.lockForTransaction(KEY);
        return [before, afterRollback, yield* held(KEY)];
      }),
    );
    expect(seen).toEqual([false, false, true]);
    await expect(store.run(held(KEY))).resolves.toBe(false);
    for (const lock of ['lane:0193-plain_text', "lane:it's \\ quoted"]) {
      const during = await store.run(store.sql.transaction(() => held(lock), { isolation: 'read committed', lock }));
      expect([lock, during, await store.run(held(lock))]).toEqual([lock, true, false]);
    }
  });

  test('placeholders inside quotes and comments are left alone', () => {
    expect(numberPlaceholders('SELECT ?, \'?\', "a?" -- ?\n, ?')).toBe('SELECT $1, \'?\', "a?" -- ?\n, $2');
    expect(numberPlaceholders("SELECT 'it''s ?', ?")).toBe("SELECT 'it''s ?', $1");
  });
});
