import { transaction, type Db } from '../../platform/db/connection';
import { sql } from '../../platform/db/statements';
import type { Clock } from '../../platform/clock';

/**
 * Persisted positions of outbox readers (table `outbox_cursors`). A reader handles the events
 * after its cursor. When the events caused rows (deliveries), the cursor advances in the same
 * transaction as those rows, so after a crash the reader resumes exactly where its last commit
 * left it (at-least-once for side effects outside the database, exactly-once for rows written in
 * that transaction). When they caused nothing, the advance is kept in memory and written at most
 * once per {@link CURSOR_PERSIST_MS}: after a crash the reader reads those events again, which
 * changes nothing (docs "Architecture", "Outbox readers"). The webhook dispatcher uses the name
 * {@link WEBHOOK_CURSOR}, the automation engine's reader {@link AUTOMATION_CURSOR}.
 */

/** Cursor name of the webhook dispatcher. */
export const WEBHOOK_CURSOR = 'webhooks';
/** Cursor name of the automation engine's outbox reader (modules/automations/runtime.ts). */
export const AUTOMATION_CURSOR = 'automations';
/** Every outbox reader: an event is handled once all of them have passed it. */
export const OUTBOX_READERS = [WEBHOOK_CURSOR, AUTOMATION_CURSOR] as const;

/** Longest time, in ms, that an advance which wrote nothing stays unpersisted. */
export const CURSOR_PERSIST_MS = 1000;

/** The last event `seq` handled by reader `name` (0 when it never ran). */
export function readCursor(db: Db, name: string): number {
  return sql<[string], { seq: number }>(db, 'SELECT seq FROM outbox_cursors WHERE name = ?').get(name)?.seq ?? 0;
}

/** Records that reader `name` handled every event up to `seq`. Call inside the reader's transaction. */
export function writeCursor(db: Db, name: string, seq: number): void {
  sql(db, 'INSERT INTO outbox_cursors (name, seq) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET seq = excluded.seq').run(name, seq);
}

/**
 * One reader's cursor: its position in memory (read from `outbox_cursors` on first use) and what
 * of it is persisted. Owned by the reader's worker, one per process (the data directory's lock
 * keeps a second process off the database).
 */
export class OutboxCursor {
  private position: number | undefined;
  private persisted = 0;
  private persistedAt = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly name: string,
  ) {}

  /** The last event `seq` this reader handled. */
  get(): number {
    if (this.position === undefined) {
      this.position = readCursor(this.db, this.name);
      this.persisted = this.position;
      this.persistedAt = this.clock.now();
    }
    return this.position;
  }

  /**
   * Runs `work` (writing the rows that events up to `seq` caused) and the cursor's advance to `seq`
   * in one transaction; the position moves once it has committed.
   * @throws whatever `work` throws (nothing is written and the position stays).
   */
  commitWith<T>(seq: number, work: () => T): T {
    const result = transaction(this.db, () => {
      const value = work();
      writeCursor(this.db, this.name, seq);
      return value;
    });
    this.position = seq;
    this.persisted = seq;
    this.persistedAt = this.clock.now();
    return result;
  }

  /**
   * Records events up to `seq` handled without rows of their own (outside any transaction):
   * persisted now when the last write is {@link CURSOR_PERSIST_MS} old, else by a later call or {@link flush}.
   */
  advance(seq: number): void {
    this.position = seq;
    if (this.clock.now() - this.persistedAt >= CURSOR_PERSIST_MS) this.flush();
  }

  /** Persists the position if it moved since the last write (a reader calls it when it stops). */
  flush(): void {
    const seq = this.position;
    if (seq === undefined || seq === this.persisted) return;
    this.commitWith(seq, () => undefined);
  }
}
