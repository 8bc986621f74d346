import type { Dialect } from './query';

/**
 * A LIKE pattern matching `text` anywhere, with `%`, `_` and `\` taken literally; use it with
 * {@link likeClause}.
 */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The SQL condition matching `<column>` against one {@link likeContains} pattern (a `?`
 * placeholder), ignoring the case of ASCII letters on both stores: `<column> LIKE ? ESCAPE '\'`
 * on SQLite (whose LIKE ignores case for ASCII letters), `<column> ILIKE ? ESCAPE '\'` on
 * PostgreSQL (whose LIKE does not; under the schema's "C" collation ILIKE folds ASCII letters
 * only, as SQLite does).
 */
export function likeClause(dialect: Dialect, column: string): string {
  return `${column} ${dialect === 'postgres' ? 'ILIKE' : 'LIKE'} ? ESCAPE '\\'`;
}
