import pg from 'pg';

/** PostgreSQL type OID of `int8` (BIGINT), the type of every integer column of the schema. */
const INT8_OID = 20;

/** Name the service's connections report (`application_name`, visible in `pg_stat_activity`). */
export const APPLICATION_NAME = 'taskspace';

/** Options of {@link createPostgresPool}. */
export interface PostgresPoolOptions {
  /** Most connections the pool opens at once; pg's default (10) when absent. */
  max?: number;
  /** `application_name` of the connections ({@link APPLICATION_NAME} when absent). */
  applicationName?: string;
  /** Server-side `statement_timeout` of every connection, in ms; 0 or absent: none. */
  statementTimeoutMs?: number;
}

/**
 * Parses the text form of an `int8` value as a JS number. Every integer the schema stores (ms
 * timestamps, counts, sequence numbers, sizes in bytes) is far below 2^53, so a number reads back
 * the same as it does from SQLite.
 * @throws RangeError when the value is outside the safe integer range (it would lose precision);
 *   pg rejects the query with this error.
 */
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`BIGINT value ${text} is outside the safe integer range of a JS number`);
  return value;
}

/**
 * Type parsers of the service's connections: `int8` in text format as a number
 * ({@link parseInt8}), every other type as pg's defaults parse it. Given to each client through
 * the `types` option, so pg's process-wide parsers (`pg.types`) stay untouched.
 * Note that `numeric` (what `SUM` and `AVG` of BIGINT return) still comes back as a string.
 */
const serviceTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary' ? parseInt8 : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * A connection pool to the PostgreSQL database at `url` for the service: BIGINT columns come back
 * as JS numbers (the same values SQLite returns), and connections identify themselves as
 * {@link APPLICATION_NAME}. Connecting is lazy: nothing is opened until the first query or
 * `connect()`. The caller ends the pool (`pool.end()`), and listens to its `'error'` event: pg
 * emits there the errors of idle connections (the server restarted, the backend was terminated),
 * and an `'error'` event nobody listens to ends the process.
 *
 * Throws nothing itself: `url` is parsed and the server reached when a connection is first opened,
 * so an unparsable `url` makes `connect()` and `query()` throw a TypeError, and connection or
 * authentication failures reject them.
 * @param url a connection URI, `postgres://user:password@host:port/database?...`.
 * @param options `max`: most open connections; `statementTimeoutMs`: the longest a statement may run.
 */
export function createPostgresPool(url: string, options: PostgresPoolOptions = {}): pg.Pool {
  return new pg.Pool({
    connectionString: url,
    application_name: options.applicationName ?? APPLICATION_NAME,
    types: serviceTypes,
    ...(options.max === undefined ? {} : { max: options.max }),
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
  });
}
