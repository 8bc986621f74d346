import pg from 'pg';
import type { WorkerLog } from '../../worker-loop';
import type { Query, Sql } from '../query';
import type { Store } from '../store';

/**
 * Wake-ups between processes on one PostgreSQL database (docs "Operations", "Roles"), over
 * `LISTEN`/`NOTIFY` on the channel {@link WORK_CHANNEL}: a process that stored work for the others
 * tells them at once instead of leaving it to their next poll. Topics:
 * - `events`: new rows may be in the outbox (after a write request in a process that does not lead);
 * - `runs`: a run was queued, decided or asked to cancel (for the processes executing runs);
 * - `deliveries`: the leader's dispatcher queued webhook deliveries (for every process sending them);
 * - `auth`: a credential or an account changed (a token revoked or deleted, an account's plan or
 *   tier changed): every process drops its cached token lookups (auth/tokens.ts `ActorCache`).
 *   Sent inside the changing transaction ({@link notifyAuthChanged}), so PostgreSQL delivers it
 *   exactly when the change commits, before the changing request can answer.
 * Work notifications are hints: the receiver also polls, so one lost (no listener connected, a
 * connection dropped) only delays the work. `auth` is not a hint: a process caches token lookups
 * only while its listener is connected and listening (see {@link WorkListener}'s `onListening`).
 */

/** The notification channel. */
export const WORK_CHANNEL = 'taskspace_work';

/** What can be notified. */
export type WorkTopic = 'events' | 'runs' | 'deliveries';

/** Every topic but `auth`: what a {@link WorkListener} passes on unless told otherwise. */
export const WORK_TOPICS: readonly WorkTopic[] = ['events', 'runs', 'deliveries'];

/** The topic of credential and account changes (see above). */
export const AUTH_TOPIC = 'auth';

/**
 * Tells every process on the database that credentials or accounts changed (topic `auth`), as
 * part of the transaction on `q` (PostgreSQL; nothing on SQLite, whose token cache watches
 * `PRAGMA data_version`). Call it in every transaction that revokes or deletes tokens or changes
 * the account fields an `Actor` carries.
 */
export function* notifyAuthChanged(q: Sql): Query<void> {
  if (q.dialect === 'postgres') yield* q.get('SELECT pg_notify(?, ?) AS sent', [WORK_CHANNEL, AUTH_TOPIC]);
}

/** How long the listener waits before connecting again after its connection failed, in ms. */
const RECONNECT_MS = 1000;

/**
 * Sends topics with `pg_notify` through `store` (PostgreSQL): at most one notification per topic
 * in flight, and one more after it when the topic was raised meanwhile, so a burst of writes
 * costs a few statements, not one each.
 */
export class WorkNotifier {
  private readonly sending = new Set<WorkTopic>();
  private readonly again = new Set<WorkTopic>();

  constructor(private readonly store: Store) {}

  /** Notifies `topic` (never throws; a failed notification is dropped). */
  notify(topic: WorkTopic): void {
    if (this.sending.has(topic)) {
      this.again.add(topic);
      return;
    }
    this.sending.add(topic);
    this.store
      .run(this.store.sql.get('SELECT pg_notify(?, ?) AS sent', [WORK_CHANNEL, topic]))
      .catch(() => undefined)
      .finally(() => {
        this.sending.delete(topic);
        if (this.again.delete(topic)) this.notify(topic);
      });
  }
}

/**
 * Listens on {@link WORK_CHANNEL} with a connection of its own (not the pool's: a listening
 * session must stay open), calling `onTopic` for each known topic. Reconnects after a failure,
 * every {@link RECONNECT_MS}, until stopped. `options.topics` chooses the topics passed on
 * (default {@link WORK_TOPICS}). `options.onListening(true)` is called once `LISTEN` has
 * succeeded, `onListening(false)` as soon as the connection fails or the listener stops: between
 * the two, every notification sent is delivered (what a cache invalidated by notifications needs).
 */
export class WorkListener<T extends string = WorkTopic> {
  private client: pg.Client | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly onTopic: (topic: T) => void,
    private readonly log: WorkerLog,
    private readonly options: { topics?: readonly T[]; onListening?: (listening: boolean) => void } = {},
  ) {
    this.topics = new Set<string>(options.topics ?? WORK_TOPICS);
  }

  /** The topics passed to `onTopic` ({@link WORK_TOPICS} unless `options.topics` says otherwise). */
  private readonly topics: ReadonlySet<string>;

  private onListening(listening: boolean): void {
    this.options.onListening?.(listening);
  }

  /** Connects and listens; resolves once listening (or once the first attempt failed, then retries). */
  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  /** Stops listening and closes the connection. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    this.onListening(false);
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.url, keepAlive: true });
    client.on('notification', (message) => {
      if (message.channel === WORK_CHANNEL && message.payload && this.topics.has(message.payload)) this.onTopic(message.payload as T);
    });
    const failed = (error: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
      this.onListening(false);
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.log.warn({ err: error }, `listening for ${WORK_CHANNEL} failed; connecting again (work is still found by polling)`);
      this.retry = setTimeout(() => void this.connect(), RECONNECT_MS);
      this.retry.unref();
    };
    client.on('error', failed);
    client.on('end', () => failed(new Error('the connection ended')));
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${WORK_CHANNEL}`);
      if (this.stopped) await this.stop();
      else if (this.client === client) this.onListening(true);
    } catch (error) {
      failed(error as Error);
    }
  }
}
