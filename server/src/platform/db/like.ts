/**
 * A LIKE pattern matching `text` anywhere, with `%`, `_` and `\` taken literally; use it with
 * `LIKE ? ESCAPE '\'`. SQLite's LIKE ignores case for ASCII letters.
 */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The SQL condition `<column> LIKE ? ESCAPE '\'` for {@link likeContains}. */
export function likeClause(column: string): string {
  return `${column} LIKE ? ESCAPE '\\'`;
}
