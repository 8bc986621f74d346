import type { Dialect, Query, Sql } from '../../platform/db/query';
import type { PresenceEvent } from './feed';

/**
 * Presence on projects (docs "API", "Presence"): who has a project open right now, derived from
 * the open live streams that watch it (`GET /api/v1/live?projectId=…`). Each such stream has a
 * row in `live_presence` (migration 030), written by the process serving it and renewed every
 * heartbeat, so every process of a database sees every stream; a row not renewed for two
 * heartbeats (its process died) no longer counts. A person is present while at least one of their
 * rows counts and they are still a member of the project's workspace.
 */

/** A person who has a project open, as the API shows people to members: by handle, never by id or email. */
export interface PresentPerson {
  handle: string;
  displayName: string;
}

/** The presence row of a stream that watches a project. */
export interface PresenceRow {
  /** The stream's own id (the row's key). */
  readonly id: string;
  readonly projectId: string;
  /** When the stream opened, ms epoch (present people are listed in the order they arrived). */
  readonly openedAt: number;
}

/** What presence needs of an open stream. */
export interface PresenceStream {
  readonly userId: string;
  /** Set when the stream watches a project. */
  readonly presence?: PresenceRow;
}

/**
 * The oldest `seen_at` (ms epoch) that still counts at `now`: a row not renewed for two heartbeats
 * of `heartbeatMs` belongs to a stream whose process died.
 */
export function presenceCutoff(now: number, heartbeatMs: number): number {
  return now - 2 * heartbeatMs;
}

/** `?` as the list of strings of a JSON array parameter, for `x IN (…)`. */
const JSON_LIST: Record<Dialect, string> = {
  sqlite: 'SELECT value FROM json_each(?)',
  postgres: 'SELECT jsonb_array_elements_text(CAST(? AS jsonb))',
};

/**
 * Writes or renews rows: parameters `seen_at` (ms) and a JSON array of `{id, projectId, userId,
 * openedAt}`. An upsert, so a row deleted meanwhile as expired (this process stalled) comes back.
 * SQLite needs the `WHERE true` to read `ON CONFLICT` as the upsert clause.
 */
const UPSERT: Record<Dialect, string> = {
  sqlite: `INSERT INTO live_presence (id, project_id, user_id, opened_at, seen_at)
    SELECT json_extract(value, '$.id'), json_extract(value, '$.projectId'), json_extract(value, '$.userId'), json_extract(value, '$.openedAt'), ?
      FROM json_each(?) WHERE true
    ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at`,
  postgres: `INSERT INTO live_presence (id, project_id, user_id, opened_at, seen_at)
    SELECT x->>'id', x->>'projectId', x->>'userId', CAST(x->>'openedAt' AS BIGINT), CAST(? AS BIGINT)
      FROM jsonb_array_elements(CAST(? AS jsonb)) x
    ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at`,
};

/** A present person with the id the server matches streams by (never sent). */
interface PresentRow extends PresentPerson {
  projectId: string;
  userId: string;
}

/**
 * The people present on each of `projectIds`: those with a row seen at or after `since` (ms epoch)
 * who are members of the project's workspace, each once, in the order they first opened the
 * project (then by handle). One query, through the index `live_presence_project`.
 * @returns project id → people; a project nobody has open is absent.
 */
export function* presentPeople(
  q: Sql,
  projectIds: readonly string[],
  since: number,
): Query<Map<string, (PresentPerson & { userId: string })[]>> {
  const rows = yield* q.all<PresentRow>(
    `SELECT lp.project_id AS "projectId", lp.user_id AS "userId", u.handle, u.display_name AS "displayName"
       FROM live_presence lp
       JOIN projects p ON p.id = lp.project_id
       JOIN workspace_members m ON m.workspace_id = p.workspace_id AND m.user_id = lp.user_id
       JOIN users u ON u.id = lp.user_id
      WHERE lp.project_id IN (${JSON_LIST[q.dialect]}) AND lp.seen_at >= ?
      GROUP BY lp.project_id, lp.user_id, u.handle, u.display_name
      ORDER BY MIN(lp.opened_at), u.handle`,
    [JSON.stringify(projectIds), since],
  );
  const byProject = new Map<string, (PresentPerson & { userId: string })[]>();
  for (const { projectId, ...person } of rows) {
    let list = byProject.get(projectId);
    if (!list) byProject.set(projectId, (list = []));
    list.push(person);
  }
  return byProject;
}

/**
 * The presence side of a server's live hub (hub.ts): writes, renews and deletes the rows of its
 * streams and tells each stream the people present on its project when it opens and whenever that
 * list changes. Its operations keep state between calls: run {@link LivePresence.look} one at a
 * time (the hub's looks are).
 */
export class LivePresence<S extends PresenceStream = PresenceStream> {
  /** The event data last sent to each stream, as JSON: a stream is told only of a different list. */
  private sent = new WeakMap<S, string>();
  /** Streams whose row is written. */
  private written = new WeakSet<S>();
  /** Rows of streams that closed, deleted at the next look. */
  private gone: string[] = [];
  /** When this process last renewed its rows (ms, `Date.now`: a cadence). */
  private beatAt = 0;

  /** @param heartbeatMs how often rows are renewed, in ms; a row older than twice this no longer counts. */
  constructor(private readonly heartbeatMs: number) {}

  /**
   * Forgets a stream that closed: its row is deleted at the next look, or with `keepRow` left to
   * expire (the browser reconnects at once, with a new stream that lists the person again).
   */
  left(stream: S, keepRow = false): void {
    this.sent.delete(stream);
    this.written.delete(stream);
    if (stream.presence && !keepRow) this.gone.push(stream.presence.id);
  }

  /**
   * Deletes the rows of closed streams, writes those of new streams (and, once a heartbeat, renews
   * every row of `streams` and deletes expired rows of any process), then reads the people present
   * on the watched projects: no query when there is nothing to delete and no stream watches a
   * project; otherwise one to four. `now` is the clock's time (ms epoch); `count` is told of each query.
   * @returns the presence event due to each stream (only streams whose person is among the present).
   */
  *look(q: Sql, streams: readonly S[], now: number, count: () => void): Query<Map<S, PresenceEvent>> {
    const gone = this.gone;
    this.gone = [];
    if (gone.length > 0) {
      count();
      yield* q.run(`DELETE FROM live_presence WHERE id IN (${JSON_LIST[q.dialect]})`, [JSON.stringify(gone)]);
    }
    const events = new Map<S, PresenceEvent>();
    const watching = streams.filter((s): s is S & { presence: PresenceRow } => s.presence !== undefined);
    if (watching.length === 0) return events;
    const due = Date.now() - this.beatAt >= this.heartbeatMs;
    const write = due ? watching : watching.filter((s) => !this.written.has(s));
    if (write.length > 0) {
      count();
      const rows = write.map((s) => ({
        id: s.presence.id,
        projectId: s.presence.projectId,
        userId: s.userId,
        openedAt: s.presence.openedAt,
      }));
      yield* q.run(UPSERT[q.dialect], [now, JSON.stringify(rows)]);
      for (const s of write) this.written.add(s);
    }
    if (due) {
      this.beatAt = Date.now();
      count();
      yield* q.run('DELETE FROM live_presence WHERE seen_at < ?', [presenceCutoff(now, this.heartbeatMs)]);
    }
    count();
    const present = yield* presentPeople(q, [...new Set(watching.map((s) => s.presence.projectId))], presenceCutoff(now, this.heartbeatMs));
    for (const stream of watching) {
      const { projectId } = stream.presence;
      const list = present.get(projectId) ?? [];
      // A person no longer in the workspace is not listed: their stream is told no more.
      if (!list.some((p) => p.userId === stream.userId)) continue;
      const data = { projectId, people: list.map(({ handle, displayName }) => ({ handle, displayName })) };
      const key = JSON.stringify(data);
      if (this.sent.get(stream) === key) continue;
      this.sent.set(stream, key);
      events.set(stream, { event: 'presence', data });
    }
    return events;
  }
}
