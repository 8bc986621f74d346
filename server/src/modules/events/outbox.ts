import type { Query, Sql } from '../../platform/db/query';
import { newOrderedId } from '../../platform/ids';

/**
 * Domain event types. The signed-webhook events of spec section 6.1 plus the automation
 * triggers of section 6.2 (README "Events" documents every payload).
 */
export const EVENT_TYPES = [
  'task.due',
  'task.assigned',
  'comment.created',
  'project.created',
  'project.assigned',
  'project.joined',
  'task.added',
  'task.completed',
  'project.completed',
  'automation.failed',
  'approval.requested',
] as const;

/** One of {@link EVENT_TYPES}. */
export type EventType = (typeof EVENT_TYPES)[number];

/** An event as stored in the outbox. */
export interface DomainEvent {
  /** Sequence number: the outbox order. */
  seq: number;
  id: string;
  type: EventType;
  workspaceId: string;
  /** ISO 8601 timestamp of the change that raised it. */
  timestamp: string;
  payload: Record<string, unknown>;
  /**
   * How many automation runs led to this event (0 for a change made through the API).
   * The engine refuses to start runs past its documented depth limit.
   */
  depth: number;
}

/**
 * Key of the transaction-level advisory lock that orders outbox appends on PostgreSQL.
 * Readers follow the outbox by `seq`: a sequence value taken by a transaction that commits after
 * a later one would be skipped by a reader that has already passed it. Taking this lock before
 * the INSERT makes appends commit in `seq` order (it is released at commit). SQLite has one writer
 * and needs nothing.
 */
export const OUTBOX_APPEND_LOCK = 7_461_001;

/** On PostgreSQL, waits for the outbox append lock (see {@link OUTBOX_APPEND_LOCK}). */
function* lockOutbox(q: Sql): Query<void> {
  if (q.dialect === 'postgres') yield* q.get('SELECT pg_advisory_xact_lock(?) AS locked', [OUTBOX_APPEND_LOCK]);
}

/**
 * Appends an event to the outbox. Call inside the transaction of the change that raises it,
 * so the event exists exactly when the change commits.
 * @returns the new event's id.
 */
export function* appendEvent(
  q: Sql,
  event: { type: EventType; workspaceId: string; payload: Record<string, unknown>; depth?: number },
  now: number,
): Query<string> {
  const id = newOrderedId();
  yield* lockOutbox(q);
  yield* q.run('INSERT INTO events (id, type, workspace_id, payload_json, depth, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
    id,
    event.type,
    event.workspaceId,
    JSON.stringify(event.payload),
    event.depth ?? 0,
    now,
  ]);
  return id;
}

/** Events with a sequence number above `afterSeq`, oldest first, at most `limit`. */
export function* readEvents(q: Sql, afterSeq: number, limit: number): Query<DomainEvent[]> {
  const rows = yield* q.all<{
    seq: number;
    id: string;
    type: EventType;
    workspace_id: string;
    payload_json: string;
    depth: number;
    created_at: number;
  }>('SELECT seq, id, type, workspace_id, payload_json, depth, created_at FROM events WHERE seq > ? ORDER BY seq LIMIT ?', [
    afterSeq,
    limit,
  ]);
  return rows.map((r) => ({
    seq: r.seq,
    id: r.id,
    type: r.type,
    workspaceId: r.workspace_id,
    timestamp: new Date(r.created_at).toISOString(),
    payload: JSON.parse(r.payload_json) as Record<string, unknown>,
    depth: r.depth,
  }));
}

/** Rows per multi-row INSERT of {@link appendEvents} (6 parameters each, well under SQLite's limit). */
const EVENT_BATCH_ROWS = 200;

/**
 * Appends many events of one change to the outbox, in order, with multi-row INSERTs of up to
 * {@link EVENT_BATCH_ROWS} rows (a 10,000-task import writes 50 statements, not 10,000). Call
 * inside the transaction of the change, like {@link appendEvent}.
 */
export function* appendEvents(
  q: Sql,
  events: readonly { type: EventType; workspaceId: string; payload: Record<string, unknown>; depth?: number }[],
  now: number,
): Query<void> {
  if (events.length > 0) yield* lockOutbox(q);
  for (let start = 0; start < events.length; start += EVENT_BATCH_ROWS) {
    const batch = events.slice(start, start + EVENT_BATCH_ROWS);
    const values = batch.map(() => '(?, ?, ?, ?, ?, ?)').join(', ');
    const args = batch.flatMap((e) => [newOrderedId(), e.type, e.workspaceId, JSON.stringify(e.payload), e.depth ?? 0, now]);
    yield* q.run(`INSERT INTO events (id, type, workspace_id, payload_json, depth, created_at) VALUES ${values}`, args);
  }
}
