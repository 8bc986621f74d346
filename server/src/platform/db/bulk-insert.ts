import type { Query, Sql } from './query';

/**
 * Multi-row INSERTs for the rows a project copy or a content import writes in bulk: a 10,000-task
 * import sends 100 statements instead of 10,000 (on PostgreSQL each statement is a round trip).
 */

/** Rows per multi-row INSERT (at most 22 columns each: well under either store's parameter limit). */
export const INSERT_BATCH_ROWS = 100;

/**
 * Inserts `rows` (each the values of `columns`, in order) into `table`, in order, with INSERTs of
 * up to {@link INSERT_BATCH_ROWS} rows. `table` and `columns` must be constants of the code (they
 * are written into the statement text). Call inside the caller's transaction, with its handle.
 */
export function* insertRows(q: Sql, table: string, columns: readonly string[], rows: readonly (readonly unknown[])[]): Query<void> {
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const head = `INSERT INTO ${table} (${columns.join(', ')}) VALUES `;
  for (let start = 0; start < rows.length; start += INSERT_BATCH_ROWS) {
    const batch = rows.slice(start, start + INSERT_BATCH_ROWS);
    yield* q.run(head + batch.map(() => tuple).join(', '), batch.flat());
  }
}
