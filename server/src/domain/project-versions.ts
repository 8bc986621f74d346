import type { Db } from '../db/connection';

/**
 * In-memory change counters per project: every access check made for a write to a project
 * (`requireProject`/`requireTask` with `mutation`) counts one change, before the write runs.
 * Caches of project data (the task list pages in domain/tasks.ts) remember the counter they were
 * filled at and are stale once it moves. A write that then fails only costs a cache miss.
 * Because the count moves before the write (in the same synchronous transaction), code must not
 * fill such a cache between a write's access check and the write itself; nothing does.
 * Counters are per database handle and start afresh with the process, like the caches.
 */
const counters = new WeakMap<Db, Map<string, number>>();

function countersOf(db: Db): Map<string, number> {
  let map = counters.get(db);
  if (!map) {
    map = new Map();
    counters.set(db, map);
  }
  return map;
}

/** The current change count of a project (0 until its first write in this process). */
export function projectVersion(db: Db, projectId: string): number {
  return countersOf(db).get(projectId) ?? 0;
}

/** Counts one change of a project. */
export function projectChanged(db: Db, projectId: string): void {
  const map = countersOf(db);
  map.set(projectId, (map.get(projectId) ?? 0) + 1);
}
