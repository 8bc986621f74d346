import type { Clock } from '../../platform/clock';
import type { Dialect } from '../../platform/db/query';
import type { Signals } from '../../platform/signals';
import type { Store } from '../../platform/db/store';
import { LiveChanges, type LiveEvent } from './feed';
import { LivePresence, type PresenceStream } from './presence';

/** How often the hub looks for changes when nothing in this process signalled one, in ms. */
export const LIVE_POLL_MS = 1000;

/** One open live stream, as the hub sees it. */
export interface LiveStream extends PresenceStream {
  /** Whose stream: it gets the changes of this person's workspaces. */
  readonly userId: string;
  /** The browser session it was opened with: the stream ends when the session is signed out, revoked or expires. */
  readonly sessionId?: string;
  /** The token (personal or OAuth) it was opened with: the stream ends when the token is revoked or expires. */
  readonly tokenId?: string;
  /** Takes this stream's share of a look's changes (never empty). */
  send(events: LiveEvent[]): void;
  /** Ends the stream: its credential is no longer valid. */
  end(): void;
}

/** What the hub has done since the server started, for operators and tests. */
export interface LiveStats {
  /** Looks for changes, each serving every open stream at once. */
  looks: number;
  /** Database queries of those looks and of the credential checks: a few per look, however many streams are open. */
  queries: number;
}

/** What the hub needs of the services. */
export interface LiveHubDeps {
  store: Store;
  clock: Clock;
  signals?: Signals;
  /** How often presence rows are renewed, in ms (`Config.presenceHeartbeatMs`); the hub looks at least this often. */
  presenceHeartbeatMs: number;
  /** Told of a look that failed (it is tried again at the next signal or poll). */
  onError(error: unknown): void;
}

/** `?` as the list of strings of a JSON array parameter, for `x IN (…)`. */
const JSON_LIST: Record<Dialect, string> = {
  sqlite: 'SELECT value FROM json_each(?)',
  postgres: 'SELECT jsonb_array_elements_text(CAST(? AS jsonb))',
};

/**
 * The live updates of one server (docs "Web app", "Live updates"): one reader of the database's
 * change fingerprints that fans the changes out to every open stream. A write wakes one look (the
 * `events` and `runs` signals, coalesced), whose cost does not grow with the number of streams;
 * each change then goes to the streams of the members of its workspace, as the look found them.
 * Without a signal it looks every {@link LIVE_POLL_MS} (or every presence heartbeat, when shorter),
 * so changes of other processes are seen too. Before it writes to a stream it checks that stream's
 * credential (and every stream's at most that often): a stream whose session was signed out,
 * revoked or expired, or whose token was revoked or expired, gets nothing more and is ended. Each look also keeps the presence of the streams that watch a
 * project (presence.ts): their rows, and a `presence` event when the people present change.
 * Runs only while a stream is open. Built once per app (composition root), so apps share nothing.
 */
export class LiveHub {
  /** Counters since start. */
  readonly stats: LiveStats = { looks: 0, queries: 0 };
  private readonly streams = new Set<LiveStream>();
  private changes = new LiveChanges();
  private readonly presence: LivePresence<LiveStream>;
  private running: Promise<void> | undefined;
  private pending: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private offs: (() => void)[] = [];
  /** When the credentials were last checked (ms, `Date.now`: a cadence, not a decision). */
  private checkedAt = 0;

  constructor(private readonly deps: LiveHubDeps) {
    this.presence = new LivePresence(deps.presenceHeartbeatMs);
  }

  /** Open streams. */
  get size(): number {
    return this.streams.size;
  }

  /**
   * Adds a stream. Resolves once a look has taken its workspaces in (so later changes are news to
   * it); the stream then gets every change the hub finds in them, until {@link LiveHub.remove}.
   */
  async add(stream: LiveStream): Promise<void> {
    this.streams.add(stream);
    if (this.streams.size === 1) this.start();
    await this.look();
  }

  /**
   * Removes a stream; the hub stops (and forgets what it saw) when none is left. A stream that
   * watched a project has its presence row deleted by a look started now, which also tells the
   * other streams of that project here; unless `handover` (the server ends the stream, after its
   * ten minutes or at shutdown, and the browser reconnects at once, here or to another process):
   * then the row is left to expire after two heartbeats, so the person does not blink out of
   * everyone's presence and keeps their place in its order.
   */
  remove(stream: LiveStream, opts: { handover?: boolean } = {}): void {
    if (!this.streams.delete(stream)) return;
    this.presence.left(stream, opts.handover);
    if (stream.presence && !opts.handover) void this.look();
    if (this.streams.size > 0) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const off of this.offs) off();
    this.offs = [];
    this.changes = new LiveChanges();
  }

  /**
   * Ends every open stream (before the server closes, which would otherwise wait for them). Their
   * presence rows are handed over (see {@link LiveHub.remove}): browsers reconnect to another
   * process or to this server once restarted.
   */
  endAll(): void {
    for (const stream of [...this.streams]) {
      this.remove(stream, { handover: true });
      stream.end();
    }
  }

  /**
   * Looks for changes now (after the look under way, if any); looks asked for meanwhile share
   * one. Resolves when that look is done; never rejects (failures go to `onError`).
   */
  look(): Promise<void> {
    if (this.pending) return this.pending;
    const after = this.running ?? Promise.resolve();
    this.pending = after.then(() => {
      this.pending = undefined;
      this.running = this.lookNow().finally(() => (this.running = undefined));
      return this.running;
    });
    return this.pending;
  }

  private start(): void {
    const wake = () => void this.look();
    this.offs = [this.deps.signals?.on('events', wake), this.deps.signals?.on('runs', wake)].filter(
      (off): off is () => void => off !== undefined,
    );
    this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    const every = Math.min(LIVE_POLL_MS, this.deps.presenceHeartbeatMs);
    this.timer = this.streams.size > 0 ? setTimeout(() => void this.look(), every) : undefined;
  }

  /**
   * Ends the streams opened with `sessionId` at once (its sign-out or revocation in this process;
   * others are found by the credential checks of the looks).
   */
  endSession(sessionId: string): void {
    for (const stream of [...this.streams]) {
      if (stream.sessionId !== sessionId) continue;
      this.remove(stream);
      stream.end();
    }
  }

  /**
   * One look: the presence and the changes, then, before anything is written to a stream, the
   * credentials of the streams about to be written to (and of every stream, at most once per
   * {@link LIVE_POLL_MS}): a stream whose session or token ended gets nothing more and is ended.
   */
  private async lookNow(): Promise<void> {
    const { store, clock } = this.deps;
    const count = () => void this.stats.queries++;
    try {
      const outgoing = new Map<LiveStream, LiveEvent[]>();
      const queue = (stream: LiveStream, events: LiveEvent[]) => outgoing.set(stream, [...(outgoing.get(stream) ?? []), ...events]);
      const presence = await store.run(this.presence.look(store.sql, [...this.streams], clock.now(), count));
      for (const [stream, event] of presence) queue(stream, [event]);
      if (this.streams.size > 0) {
        this.stats.looks++;
        const users = [...new Set([...this.streams].map((s) => s.userId))];
        const changes = this.changes;
        const found = await store.run(changes.look(store.sql, users, count));
        if (changes === this.changes && found.changes.length > 0) {
          for (const stream of this.streams) {
            const mine = found.changes.filter((c) => found.members.get(c.workspaceId)?.has(stream.userId)).map((c) => c.change);
            if (mine.length > 0) queue(stream, mine);
          }
        }
      }
      const due = Date.now() - this.checkedAt >= LIVE_POLL_MS;
      if (due) this.checkedAt = Date.now();
      const check = due ? [...this.streams] : [...outgoing.keys()].filter((s) => this.streams.has(s));
      if (check.length > 0) await this.endRevoked(check, count);
      for (const [stream, events] of outgoing) if (this.streams.has(stream)) stream.send(events);
    } catch (error) {
      this.deps.onError(error);
    } finally {
      this.schedule();
    }
  }

  /** Ends those of `streams` whose session or token is no longer valid: at most two queries. */
  private async endRevoked(streams: LiveStream[], count: () => void): Promise<void> {
    const { store, clock } = this.deps;
    const q = store.sql;
    const sessions = [...new Set(streams.flatMap((s) => (s.sessionId ? [s.sessionId] : [])))];
    const tokens = [...new Set(streams.flatMap((s) => (s.tokenId ? [s.tokenId] : [])))];
    const now = clock.now();
    const live = new Set<string>();
    if (sessions.length > 0) {
      count();
      const rows = await store.run(
        q.all<{ id: string }>(`SELECT id FROM sessions WHERE id IN (${JSON_LIST[q.dialect]}) AND revoked_at IS NULL AND expires_at > ?`, [
          JSON.stringify(sessions),
          now,
        ]),
      );
      for (const r of rows) live.add(`s:${r.id}`);
    }
    if (tokens.length > 0) {
      count();
      const rows = await store.run(
        q.all<{ id: string }>(
          `SELECT id FROM access_tokens WHERE id IN (${JSON_LIST[q.dialect]}) AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`,
          [JSON.stringify(tokens), now],
        ),
      );
      for (const r of rows) live.add(`t:${r.id}`);
    }
    for (const stream of streams) {
      const ended =
        (stream.sessionId !== undefined && !live.has(`s:${stream.sessionId}`)) ||
        (stream.tokenId !== undefined && !live.has(`t:${stream.tokenId}`));
      if (ended && this.streams.has(stream)) {
        this.remove(stream);
        stream.end();
      }
    }
  }
}
