import type { Query } from '../../platform/db/query';

/**
 * Recently read task list pages (the outline's hot read), per app. Each page is kept with the
 * project version it was read at (`projects.version`, bumped by the database on every task
 * change), so a page is served only while the stored version is unchanged; several processes
 * on one database therefore never serve each other's stale pages.
 */
export class TaskPageCache<T> {
  private readonly pages = new Map<string, { version: number; items: readonly T[] }>();

  /** @param maxPages most pages kept before the cache starts afresh. */
  constructor(private readonly maxPages = 2000) {}

  /**
   * The page under `key` when it was read at `version`, else the result of the operation
   * `read()`, remembered. Only successful reads are kept, so a page found for a cursor proves
   * that cursor was valid at this version. Call after the caller's access check, which read
   * `version` before the page is read (a page is never older than the version it is kept under).
   */
  *page<P extends T>(key: string, version: number, read: () => Query<P[]>): Query<P[]> {
    const hit = this.pages.get(key);
    if (hit && hit.version === version) return hit.items as P[];
    const items = yield* read();
    if (this.pages.size >= this.maxPages) this.pages.clear();
    this.pages.set(key, { version, items });
    return items;
  }
}
