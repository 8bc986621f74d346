/**
 * The storage seam shared by both stores (docs "Architecture", "One data layer, two stores").
 *
 * Domain code is written once, as generator functions over a {@link Sql} handle:
 *
 * ```ts
 * function* projectName(q: Sql, id: string): Query<string | undefined> {
 *   const row = yield* q.get<{ name: string }>('SELECT name FROM projects WHERE id = ?', [id]);
 *   return row?.name;
 * }
 * ```
 *
 * Every storage call is delegated to with `yield*`. On the embedded SQLite store the calls finish
 * synchronously and never yield, so {@link runSync} runs a whole operation, transactions included,
 * without giving the event loop away (the speed and the atomicity SQLite mode relies on). On
 * PostgreSQL each call yields its driver promise and {@link runAsync} resumes the generator with
 * the result. Nothing else differs: the same function serves both stores.
 */

/**
 * A storage operation producing `T`: a generator that yields only driver promises (PostgreSQL)
 * or nothing at all (SQLite). Run it with {@link runSync}, {@link runAsync} or `Store.run`, or
 * delegate to it with `yield*` from another operation.
 */
export type Query<T> = Generator<Promise<unknown>, T, unknown>;

/** Positional parameters, bound to the `?` placeholders of the SQL text in order. */
export type Params = readonly unknown[];

/** What a write statement reports. */
export interface RunResult {
  /** Rows inserted, updated or deleted by the statement. */
  changes: number;
}

/** Options of {@link Sql.transaction}. */
export interface TransactionOptions {
  isolation?: 'serializable' | 'read committed';
  /**
   * PostgreSQL: a text whose hash keys a transaction-level advisory lock
   * (`pg_advisory_xact_lock(hashtextextended(lock, 0))`) taken right after BEGIN, in the same
   * round trip when the text is plain (letters, digits, `:`, `_`, `-`). Ignored on SQLite and for
   * a savepoint.
   */
  lock?: string;
}

/** The SQL flavour behind a handle, for the few statements that must differ. */
export type Dialect = 'sqlite' | 'postgres';

/**
 * A handle on the database: the store itself, or one open transaction. Statements use `?`
 * placeholders on both stores; functions that run inside a transaction must use the handle the
 * transaction gives them (on PostgreSQL another handle is another connection).
 */
export interface Sql {
  readonly dialect: Dialect;
  /** Every row of a query, as objects keyed by column name. */
  all<R = Record<string, unknown>>(text: string, params?: Params): Query<R[]>;
  /** The first row of a query, or undefined. */
  get<R = Record<string, unknown>>(text: string, params?: Params): Query<R | undefined>;
  /** Runs a write statement. */
  run(text: string, params?: Params): Query<RunResult>;
  /**
   * Runs `body` in one transaction, committed when it returns and rolled back when it throws.
   * Inside another transaction it becomes a savepoint, rolled back alone when `body` throws.
   * On SQLite the transaction takes the write lock at once (BEGIN IMMEDIATE).
   * @param options `isolation` (PostgreSQL; ignored on SQLite and for a savepoint): `serializable`
   *   by default; `read committed` for a body that orders itself with a lock it takes first
   *   (each later statement then sees what the lock's previous holder committed).
   * @throws whatever `body` throws, after the rollback.
   */
  transaction<T>(body: (tx: Sql) => Query<T>, options?: TransactionOptions): Query<T>;
  /**
   * Takes the advisory lock `key` for the rest of this handle's transaction, unless the
   * transaction already holds it: on PostgreSQL `pg_advisory_xact_lock(key)` (released by COMMIT
   * or ROLLBACK; taken again after a rollback to a savepoint, which releases what the savepoint
   * took), at most one round trip per transaction however often it is asked for; nothing on
   * SQLite, whose single writer already orders transactions. Call only inside a transaction.
   */
  lockForTransaction(key: number): Query<void>;
  /**
   * Whether the caller's next statement must take the advisory lock `key` itself (PostgreSQL:
   * `pg_advisory_xact_lock(key)` inside that statement, before it does what the lock orders,
   * which saves the round trip of {@link lockForTransaction}). True when the transaction does not
   * hold the lock yet; the lock is then counted as held, so the statement must not be skipped
   * (if it fails, the transaction or savepoint is rolled back and the lock with it). Always false
   * on SQLite (see {@link lockForTransaction}). Call only inside a transaction.
   */
  lockInNextStatement(key: number): boolean;
}

/** Thrown by {@link runSync} when an operation waits on a promise: it needs {@link runAsync}. */
export class AsyncQueryError extends TypeError {
  constructor() {
    super('a storage operation waited on a promise while running synchronously (SQLite runs every statement synchronously)');
  }
}

/**
 * Runs an operation to its end without waiting: for the SQLite store, whose statements never
 * yield. A transaction the operation opened is rolled back before the error is thrown.
 * @throws whatever the operation throws; {@link AsyncQueryError} when it yields a promise.
 */
export function runSync<T>(query: Query<T>): T {
  const step = query.next();
  if (step.done) return step.value;
  // Settle the stray promise so it cannot surface as an unhandled rejection, then unwind the
  // generator (its finally blocks roll back what it opened).
  step.value.catch(() => undefined);
  query.return(undefined as T);
  throw new AsyncQueryError();
}

/**
 * Runs an operation, resuming it with the value of every promise it yields (or throwing that
 * promise's error into it, where it may be caught).
 * @throws (rejects with) whatever the operation throws.
 */
export async function runAsync<T>(query: Query<T>): Promise<T> {
  let step = query.next();
  while (!step.done) {
    let value: unknown;
    try {
      value = await step.value;
    } catch (error) {
      step = query.throw(error);
      continue;
    }
    step = query.next(value);
  }
  return step.value;
}

/**
 * True when `error` is a unique-constraint violation (a duplicate primary key or unique value)
 * from either store.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/**
 * Unique indexes whose keys a transaction derives from what it read (a task's `path` from its
 * siblings' ranks): a duplicate there means a concurrent transaction took the key first, which
 * PostgreSQL reports as a unique violation rather than a serialization failure when the
 * transaction did not read that exact key. Only writes from several processes can meet it.
 */
const DERIVED_KEY_INDEXES: ReadonlySet<string> = new Set(['tasks_project_path']);

/**
 * True when `error` is PostgreSQL aborting a transaction for colliding with concurrent ones (a
 * serialization failure, a deadlock, or a duplicate in a {@link DERIVED_KEY_INDEXES} index): the
 * transaction wrote nothing and may be run again.
 */
export function isRetryableConflict(error: unknown): boolean {
  const e = (error ?? {}) as { code?: unknown; constraint?: unknown };
  return (
    e.code === '40001' ||
    e.code === '40P01' ||
    (e.code === '23505' && typeof e.constraint === 'string' && DERIVED_KEY_INDEXES.has(e.constraint))
  );
}
