import type { Query, Sql } from '../../platform/db/query';
import type { Store } from '../../platform/db/store';
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
/** Cursor name of the automation engine's outbox reader (modules/engine-host/runtime.ts). */
export const AUTOMATION_CURSOR = 'automations';
/** Cursor name of the mail notifier's outbox reader (modules/mail/notifier.ts). */
export const MAIL_CURSOR = 'mail';
/** Every outbox reader: an event is handled once all of them have passed it. */
export const OUTBOX_READERS = [WEBHOOK_CURSOR, AUTOMATION_CURSOR, MAIL_CURSOR] as const;

/** Longest time, in ms, that an advance which wrote nothing stays unpersisted. */
export const CURSOR_PERSIST_MS = 1000;

/** The last event `seq` handled by reader `name` (0 when it never ran). */
export function* readCursor(q: Sql, name: string): Query<number> {
  const row = yield* q.get<{ seq: number }>('SELECT seq FROM outbox_cursors WHERE name = ?', [name]);
  return row?.seq ?? 0;
}

/** Records that reader `name` handled every event up to `seq`. Call inside the reader's transaction. */
export function* writeCursor(q: Sql, name: string, seq: number): Query<void> {
  yield* q.run('INSERT INTO outbox_cursors (name, seq) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET seq = excluded.seq', [name, seq]);
}

/**
 * One reader's cursor: its position in memory (read from `outbox_cursors` on first use) and what
 * of it is persisted. Owned by the reader's worker, one per process (the data directory's lock
 * keeps a second process off the database). Its methods run their storage work on `store`
 * themselves: the position moves only once a write has committed, so they are never part of a
 * caller's transaction.
 */
export class OutboxCursor {
  private position: number | undefined;
  private persisted = 0;
  private persistedAt = 0;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    readonly name: string,
  ) {}

  /** The last event `seq` this reader handled (read from the database on the first call). */
  async get(): Promise<number> {
    if (this.position === undefined) {
      const stored = await this.store.run(readCursor(this.store.sql, this.name));
      // Another call may have loaded (or moved) it meanwhile: the first load wins.
      if (this.position === undefined) {
        this.position = stored;
        this.persisted = stored;
        this.persistedAt = this.clock.now();
      }
    }
    return this.position;
  }

  /**
   * Runs `work` (writing, through the transaction handle it is given, the rows that events up to
   * `seq` caused) and the cursor's advance to `seq` in one transaction; the position moves once it
   * has committed. Without `work`, only the advance is written.
   * @returns what `work` returned.
   * @throws (rejects with) whatever `work` throws (nothing is written and the position stays).
   */
  async commitWith<T>(seq: number, work?: (tx: Sql) => Query<T>): Promise<T | undefined> {
    const name = this.name;
    const result = await this.store.run(
      this.store.sql.transaction(function* (tx) {
        const value = work ? yield* work(tx) : undefined;
        yield* writeCursor(tx, name, seq);
        return value;
      }),
    );
    // Never backwards: an advance made while the transaction ran stays (and is flushed later).
    if (this.position === undefined || this.position < seq) this.position = seq;
    this.persisted = seq;
    this.persistedAt = this.clock.now();
    return result;
  }

  /**
   * Records events up to `seq` handled without rows of their own (outside any transaction):
   * persisted now when the last write is {@link CURSOR_PERSIST_MS} old, else by a later call or {@link flush}.
   */
  async advance(seq: number): Promise<void> {
    this.position = seq;
    if (this.clock.now() - this.persistedAt >= CURSOR_PERSIST_MS) await this.flush();
  }

  /** Persists the position if it moved since the last write (a reader calls it when it stops). */
  async flush(): Promise<void> {
    const seq = this.position;
    if (seq === undefined || seq === this.persisted) return;
    await this.commitWith(seq);
  }
}
