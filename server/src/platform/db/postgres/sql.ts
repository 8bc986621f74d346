import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryResult } from 'pg';
import { isRetryableConflict, type Params, type Query, type RunResult, type Sql, type TransactionOptions } from '../query';

/** Most attempts of one transaction that PostgreSQL aborts as a serialization failure or deadlock. */
export const MAX_TRANSACTION_ATTEMPTS = 8;

/** Longest wait, in ms, before the second attempt of a transaction; it doubles per attempt (the wait is random below it). */
export const RETRY_BACKOFF_MS = 5;

/**
 * Most distinct statement texts a store runs as named prepared statements; texts seen after
 * these (statements built with a varying number of placeholders) run unnamed.
 */
export const MAX_PREPARED_STATEMENTS = 500;

/** A {@link TransactionOptions.lock} text that may be written into the BEGIN query as a literal. */
const PLAIN_LOCK_TEXT = /^[A-Za-z0-9:_-]{1,200}$/;

/**
 * A statement text as sent: with `$n` placeholders, and the name it is prepared under on each
 * connection (pg's `name` option: parsed and planned once per connection, then only bound and
 * executed), unless past {@link MAX_PREPARED_STATEMENTS}.
 */
interface Rewritten {
  text: string;
  name?: string;
}

/**
 * The {@link Sql} handle of the PostgreSQL store: every statement yields the `pg` driver's promise
 * (run it with `runAsync`). Statement texts are written with `?` placeholders, as for SQLite; each
 * text is rewritten to `$1, $2, …` once and cached, and run as a named prepared statement (see
 * {@link MAX_PREPARED_STATEMENTS}).
 *
 * Transactions run at SERIALIZABLE unless asked otherwise: the same guarantee SQLite's single
 * writer gives, so code that reads and then writes needs no dialect-specific locking. A transaction PostgreSQL aborts as a
 * serialization failure or deadlock is run again from the start after a short random wait, up to
 * {@link MAX_TRANSACTION_ATTEMPTS} times; a body must therefore do nothing but storage work that
 * cannot be repeated (no outbound calls: those belong after the commit).
 */
export class PostgresSql implements Sql {
  readonly dialect = 'postgres' as const;

  /**
   * True on a savepoint's handle while nothing has run in the savepoint: a transaction begun then
   * needs no savepoint of its own (see {@link PostgresSql.transaction}).
   */
  private clean: boolean;

  /**
   * A savepoint of a nested transaction that ended well and is not yet released: its RELEASE goes
   * with the next statement on this handle (in one round trip with the next SAVEPOINT), or never,
   * when the transaction commits first (COMMIT releases every savepoint). A group of writes
   * (platform/db/group-commit.ts) so costs one round trip per write fewer.
   */
  private releasing: string | undefined;

  /**
   * @param target the pool (outside a transaction) or the transaction's client.
   * @param texts cache of rewritten statement texts and their prepared statement names, shared by a store's handles.
   * @param depth 0 on the pool, 1 inside a transaction, more inside savepoints.
   * @param savepoint the savepoint this handle works in (depth 2 and more).
   * @param locks the advisory locks the transaction holds (see {@link lockForTransaction}), shared by its handles.
   */
  constructor(
    private readonly target: Pool | PoolClient,
    private readonly texts: Map<string, Rewritten> = new Map(),
    private readonly depth = 0,
    private readonly savepoint?: string,
    private readonly locks: Set<number> = new Set(),
  ) {
    this.clean = savepoint !== undefined;
  }

  *all<R>(text: string, params: Params = []): Query<R[]> {
    const result = (yield this.query(text, params)) as QueryResult;
    return result.rows as R[];
  }

  *get<R>(text: string, params: Params = []): Query<R | undefined> {
    const result = (yield this.query(text, params)) as QueryResult;
    return result.rows[0] as R | undefined;
  }

  *run(text: string, params: Params = []): Query<RunResult> {
    const result = (yield this.query(text, params)) as QueryResult;
    return { changes: result.rowCount ?? 0 };
  }

  /**
   * Runs `body` in a transaction: on the pool, BEGIN … COMMIT with retries; inside a transaction,
   * a savepoint, so that a body that throws is undone alone. A nested transaction begun before
   * anything ran in the savepoint around it shares that savepoint (rolled back to, and kept, when
   * the body throws): the state to return to is the same, and a grouped write then costs two
   * statements fewer.
   */
  *transaction<T>(body: (tx: Sql) => Query<T>, options: TransactionOptions = {}): Query<T> {
    if (this.clean) return yield* this.inSavepoint(body);
    if (this.depth > 0) return yield* this.nested(body);
    const isolation =
      options.isolation === 'read committed' ? 'BEGIN ISOLATION LEVEL READ COMMITTED' : 'BEGIN ISOLATION LEVEL SERIALIZABLE';
    // A plain lock text goes with BEGIN (one simple query, one round trip); any other is bound as a parameter.
    const inline = options.lock !== undefined && PLAIN_LOCK_TEXT.test(options.lock);
    const begin = inline ? `${isolation}; SELECT pg_advisory_xact_lock(hashtextextended('${options.lock!}', 0))` : isolation;
    for (let attempt = 1; ; attempt++) {
      const client = yield* this.connect();
      let broken: Error | undefined;
      // The connection may end between two statements (terminated by an administrator or by a
      // follower taking over from this stalled leader): pg then emits 'error' on the client, which
      // would end the process unheard. The next statement fails instead, and the client is dropped.
      const ended = (error: Error) => (broken ??= error);
      client.on('error', ended);
      try {
        yield client.query(begin);
        const tx = new PostgresSql(client, this.texts, 1, undefined, new Set());
        if (options.lock !== undefined && !inline)
          yield* tx.get('SELECT pg_advisory_xact_lock(hashtextextended(?, 0)) AS locked', [options.lock]);
        const result = yield* body(tx);
        yield client.query('COMMIT');
        return result;
      } catch (error) {
        try {
          yield client.query('ROLLBACK');
        } catch (rollbackError) {
          broken = rollbackError as Error;
        }
        if (attempt >= MAX_TRANSACTION_ATTEMPTS || !isRetryableConflict(error)) throw error;
      } finally {
        client.removeListener('error', ended);
        // A client whose rollback failed (or whose connection ended) is discarded rather than reused.
        client.release(broken);
      }
      // Only a retryable failure gets here. Transactions that collided would collide again at
      // once: spread them out.
      yield new Promise((resolve) => setTimeout(resolve, Math.random() * RETRY_BACKOFF_MS * 2 ** (attempt - 1)));
    }
  }

  /**
   * `pg_advisory_xact_lock(key)` unless this transaction already took it (see
   * {@link Sql.lockForTransaction}): a group of writes that each append to the outbox takes the
   * outbox's lock once, not once per write.
   */
  *lockForTransaction(key: number): Query<void> {
    if (this.locks.has(key)) return;
    yield* this.get('SELECT pg_advisory_xact_lock(?) AS locked', [key]);
    // Outside a transaction the statement is its own transaction and the lock ends with it.
    if (this.depth > 0) this.locks.add(key);
  }

  /** See {@link Sql.lockInNextStatement}: true, and the lock counted as held, unless this transaction holds it. */
  lockInNextStatement(key: number): boolean {
    if (this.locks.has(key)) return false;
    if (this.depth > 0) this.locks.add(key);
    return true;
  }

  /** A client of the pool; released at once if the operation is abandoned while it connects. */
  private *connect(): Query<PoolClient> {
    const connecting = (this.target as Pool).connect();
    let client: PoolClient | undefined;
    try {
      client = (yield connecting) as PoolClient;
      return client;
    } finally {
      if (client === undefined)
        connecting.then(
          (c) => c.release(),
          () => undefined,
        );
    }
  }

  /** `body` in this handle's savepoint, in which nothing has run yet. */
  private *inSavepoint<T>(body: (tx: Sql) => Query<T>): Query<T> {
    try {
      return yield* body(this);
    } catch (error) {
      // Rolling back to this savepoint ends every savepoint begun inside it.
      this.releasing = undefined;
      // The rollback releases the locks taken since the savepoint: which ones is not tracked, so all are taken again when asked for.
      this.locks.clear();
      yield* this.rollBackTo(`ROLLBACK TO SAVEPOINT ${this.savepoint!}`, error);
      this.clean = true;
      throw error;
    }
  }

  private *nested<T>(body: (tx: Sql) => Query<T>): Query<T> {
    const name = `nested_${this.depth}`;
    this.clean = false;
    // Statements without parameters: one simple query may carry several.
    yield this.target.query(`${this.takeRelease()}SAVEPOINT ${name}`);
    try {
      const result = yield* body(new PostgresSql(this.target, this.texts, this.depth + 1, name, this.locks));
      this.releasing = name;
      return result;
    } catch (error) {
      this.locks.clear();
      yield* this.rollBackTo(`ROLLBACK TO SAVEPOINT ${name}; RELEASE SAVEPOINT ${name}`, error);
      throw error;
    }
  }

  /**
   * Sends a rollback to a savepoint after `error`. When that fails too, the connection is broken
   * (ended by an administrator, or by a follower taking over from this stalled leader): `error`,
   * the cause, is thrown rather than the client's "not queryable", so the caller sees why.
   */
  private *rollBackTo(text: string, error: unknown): Query<void> {
    try {
      yield this.target.query(text);
    } catch {
      throw error;
    }
  }

  /** The pending RELEASE of {@link releasing} as a statement prefix (`RELEASE SAVEPOINT x; `), or ''; it is then sent. */
  private takeRelease(): string {
    const name = this.releasing;
    this.releasing = undefined;
    return name === undefined ? '' : `RELEASE SAVEPOINT ${name}; `;
  }

  private query(text: string, params: Params): Promise<QueryResult> {
    this.clean = false;
    let rewritten = this.texts.get(text);
    if (rewritten === undefined) {
      rewritten = { text: numberPlaceholders(text) };
      // Named by the text's hash: handles with caches of their own on one pool never give one name two texts.
      if (this.texts.size < MAX_PREPARED_STATEMENTS) rewritten.name = `ts_${createHash('sha1').update(rewritten.text).digest('hex')}`;
      this.texts.set(text, rewritten);
    }
    const config = { text: rewritten.text, values: params as unknown[], ...(rewritten.name === undefined ? {} : { name: rewritten.name }) };
    const release = this.takeRelease();
    if (release === '') return this.target.query(config);
    return this.target.query(release).then(() => this.target.query(config));
  }
}

/**
 * `text` with each `?` placeholder replaced by `$1`, `$2`, … in order. Question marks inside
 * quoted strings ('…'), quoted identifiers ("…") and comments are left alone.
 */
export function numberPlaceholders(text: string): string {
  let out = '';
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const end = closingQuote(text, i, c);
      out += text.slice(i, end + 1);
      i = end;
    } else if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      out += text.slice(i, stop);
      i = stop - 1;
    } else if (c === '?') {
      out += `$${++n}`;
    } else out += c;
  }
  return out;
}

/** Index of the quote closing the one at `start` (a doubled quote is an escaped one). */
function closingQuote(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === quote) {
      if (text[i + 1] === quote) i += 2;
      else return i;
    } else i++;
  }
  return text.length - 1;
}
