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
  'task.updated',
  'task.deleted',
  'field.changed',
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
  /** The automation and run whose step made the change, when one did (see {@link EventCause}). */
  causedBy?: EventCause;
}

/** The automation and run whose step made a change (an {@link Actor}'s `cause`). */
export interface EventCause {
  automationId: string;
  runId: string;
}

/** An event to append: its type, workspace and payload, with the actor's depth and cause. */
export interface NewEvent {
  type: EventType;
  workspaceId: string;
  payload: Record<string, unknown>;
  /** How many automation runs led to the change (default 0). */
  depth?: number;
  /** The automation and run whose step made the change, if any. */
  causedBy?: EventCause | undefined;
}

/** The columns of one appended event, in {@link EVENT_INSERT_COLUMNS} order. */
function eventRow(event: NewEvent, now: number): (string | number | null)[] {
  return [
    newOrderedId(),
    event.type,
    event.workspaceId,
    JSON.stringify(event.payload),
    event.depth ?? 0,
    now,
    event.causedBy?.automationId ?? null,
    event.causedBy?.runId ?? null,
  ];
}

/** The columns an append writes. */
const EVENT_INSERT_COLUMNS = 'id, type, workspace_id, payload_json, depth, created_at, caused_by_automation_id, caused_by_run_id';

/**
 * Key of the transaction-level advisory lock that orders outbox appends on PostgreSQL.
 * Readers follow the outbox by `seq`: a sequence value taken by a transaction that commits after
 * a later one would be skipped by a reader that has already passed it. Taking this lock before
 * the INSERT makes appends commit in `seq` order (it is released at commit). SQLite has one writer
 * and needs nothing.
 */
export const OUTBOX_APPEND_LOCK = 7_461_001;

/** Rows per multi-row INSERT on SQLite (8 parameters each, well under SQLite's limit). */
const EVENT_BATCH_ROWS = 200;

/**
 * A write to run with an append, in the same statement on PostgreSQL (one round trip fewer in the
 * caller's transaction): an INSERT, UPDATE or DELETE without RETURNING, with `?` placeholders.
 */
export interface AlongsideWrite {
  text: string;
  params: readonly unknown[];
}

/**
 * PostgreSQL's append of rows given as arrays, one per column, unnested in order (one statement
 * text whatever the row count), reading them `from` the unnest alone or joined to the lock's CTE.
 */
function postgresAppend(from: string): string {
  return `INSERT INTO events (${EVENT_INSERT_COLUMNS})
  SELECT e.id, e.type, e.workspace_id, e.payload_json, e.depth, e.created_at, e.caused_by_automation_id, e.caused_by_run_id
    FROM ${from}(?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::text[], ?::text[])
         WITH ORDINALITY AS e(id, type, workspace_id, payload_json, depth, created_at, caused_by_automation_id, caused_by_run_id, n)
   ORDER BY e.n`;
}

/**
 * Writes event rows ({@link eventRow}) in order, and `alongside` (if any) with them.
 * PostgreSQL: one statement. When the transaction does not hold the append lock
 * ({@link OUTBOX_APPEND_LOCK}) yet, the statement takes it in a materialized CTE joined to the
 * rows, which runs before the first row reaches the INSERT, so before the first `seq` is drawn;
 * `alongside` is a data-modifying CTE of the same statement. SQLite, whose single writer orders
 * appends: `alongside` first, then multi-row INSERTs of up to {@link EVENT_BATCH_ROWS} rows.
 */
function* insertEventRows(q: Sql, rows: readonly (string | number | null)[][], alongside?: AlongsideWrite): Query<void> {
  if (rows.length === 0) {
    if (alongside) yield* q.run(alongside.text, alongside.params);
    return;
  }
  if (q.dialect === 'postgres') {
    const ctes: string[] = [];
    const params: unknown[] = [];
    const locking = q.lockInNextStatement(OUTBOX_APPEND_LOCK);
    if (locking) {
      ctes.push('outbox_lock AS MATERIALIZED (SELECT pg_advisory_xact_lock(?::bigint))');
      params.push(OUTBOX_APPEND_LOCK);
    }
    if (alongside) {
      ctes.push(`alongside AS (${alongside.text})`);
      params.push(...alongside.params);
    }
    for (let column = 0; column < rows[0]!.length; column++) params.push(rows.map((row) => row[column]));
    const append = postgresAppend(locking ? 'outbox_lock, unnest' : 'unnest');
    yield* q.run(ctes.length === 0 ? append : `WITH ${ctes.join(', ')}\n${append}`, params);
    return;
  }
  if (alongside) yield* q.run(alongside.text, alongside.params);
  for (let start = 0; start < rows.length; start += EVENT_BATCH_ROWS) {
    const batch = rows.slice(start, start + EVENT_BATCH_ROWS);
    yield* q.run(
      `INSERT INTO events (${EVENT_INSERT_COLUMNS}) VALUES ${batch.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      batch.flat(),
    );
  }
}

/**
 * Appends an event to the outbox. Call inside the transaction of the change that raises it,
 * so the event exists exactly when the change commits.
 * @returns the new event's id.
 */
export function* appendEvent(q: Sql, event: NewEvent, now: number): Query<string> {
  const row = eventRow(event, now);
  yield* insertEventRows(q, [row]);
  return row[0] as string;
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
    caused_by_automation_id: string | null;
    caused_by_run_id: string | null;
  }>(
    `SELECT seq, id, type, workspace_id, payload_json, depth, created_at, caused_by_automation_id, caused_by_run_id
       FROM events WHERE seq > ? ORDER BY seq LIMIT ?`,
    [afterSeq, limit],
  );
  return rows.map((r) => {
    const event: DomainEvent = {
      seq: r.seq,
      id: r.id,
      type: r.type,
      workspaceId: r.workspace_id,
      timestamp: new Date(r.created_at).toISOString(),
      payload: JSON.parse(r.payload_json) as Record<string, unknown>,
      depth: r.depth,
    };
    if (r.caused_by_automation_id !== null && r.caused_by_run_id !== null) {
      event.causedBy = { automationId: r.caused_by_automation_id, runId: r.caused_by_run_id };
    }
    return event;
  });
}

/**
 * Appends many events of one change to the outbox, in order, with multi-row INSERTs of up to
 * {@link EVENT_BATCH_ROWS} rows on SQLite (a 10,000-task import writes 50 statements, not 10,000)
 * and one statement on PostgreSQL. Call inside the transaction of the change, like
 * {@link appendEvent}.
 */
export function* appendEvents(q: Sql, events: readonly NewEvent[], now: number): Query<void> {
  yield* appendEventsAt(
    q,
    events.map((event) => ({ event, now })),
  );
}

/**
 * Appends events to the outbox in order, each with its own time (`now`, ms since the epoch): the
 * events of several changes written together (a group's batch of task creates), as
 * {@link appendEvents} writes them. Call inside the transaction of the changes.
 * `alongside` (optional): a write of the same changes that goes with the append in one statement on
 * PostgreSQL (see {@link AlongsideWrite}); on SQLite it runs just before.
 */
export function* appendEventsAt(q: Sql, events: readonly { event: NewEvent; now: number }[], alongside?: AlongsideWrite): Query<void> {
  yield* insertEventRows(
    q,
    events.map((e) => eventRow(e.event, e.now)),
    alongside,
  );
}
