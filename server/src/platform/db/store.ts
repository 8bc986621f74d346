import type { Pool } from 'pg';
import type { Db } from './connection';
import { PostgresSql } from './postgres/sql';
import { runAsync, runSync, type Dialect, type Query, type Sql } from './query';
import { SqliteSql } from './sqlite-sql';

/**
 * The service's storage: a root {@link Sql} handle and the way to run operations on it
 * (docs "Architecture", "One data layer, two stores"). Built once per app.
 */
export interface Store {
  readonly dialect: Dialect;
  /** The handle outside any transaction. */
  readonly sql: Sql;
  /**
   * Runs an operation: synchronously on SQLite (the promise is already settled when returned),
   * driver call by driver call on PostgreSQL.
   * @throws (rejects with) whatever the operation throws.
   */
  run<T>(query: Query<T>): Promise<T>;
}

/** The embedded store over the service's SQLite connection. */
export function sqliteStore(db: Db): Store {
  const handle = new SqliteSql(db);
  return {
    dialect: 'sqlite',
    sql: handle,
    run<T>(query: Query<T>): Promise<T> {
      try {
        return Promise.resolve(runSync(query));
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}

/** The PostgreSQL store over a `pg` pool (see postgres/pool.ts). */
export function postgresStore(pool: Pool): Store {
  return { dialect: 'postgres', sql: new PostgresSql(pool), run: runAsync };
}
