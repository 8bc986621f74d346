import type { Db } from '../../platform/db/connection';
import { sql } from '../../platform/db/statements';

/**
 * Persisted positions of outbox readers (table `outbox_cursors`). A reader handles the events
 * after its cursor and advances the cursor in the same transaction as the work those events
 * caused, so after a crash it resumes exactly where its last commit left it (at-least-once for
 * side effects outside the database, exactly-once for rows written in that transaction).
 * The webhook dispatcher uses the name {@link WEBHOOK_CURSOR}; other readers (the automation
 * engine) pick their own name.
 */

/** Cursor name of the webhook dispatcher. */
export const WEBHOOK_CURSOR = 'webhooks';

/** The last event `seq` handled by reader `name` (0 when it never ran). */
export function readCursor(db: Db, name: string): number {
  return sql<[string], { seq: number }>(db, 'SELECT seq FROM outbox_cursors WHERE name = ?').get(name)?.seq ?? 0;
}

/** Records that reader `name` handled every event up to `seq`. Call inside the reader's transaction. */
export function writeCursor(db: Db, name: string, seq: number): void {
  sql(db, 'INSERT INTO outbox_cursors (name, seq) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET seq = excluded.seq').run(name, seq);
}
