import pg from 'pg';
import type { WorkerLog } from '../../worker-loop';
import type { Store } from '../store';

/**
 * Wake-ups between processes on one PostgreSQL database (docs "Operations", "Roles"), over
 * `LISTEN`/`NOTIFY` on the channel {@link WORK_CHANNEL}: a process that stored work for the others
 * tells them at once instead of leaving it to their next poll. Topics:
 * - `events`: new rows may be in the outbox (after a write request in a process that does not lead);
 * - `runs`: a run was queued, decided or asked to cancel (for the processes executing runs);
 * - `deliveries`: the leader's dispatcher queued webhook deliveries (for every process sending them).
 * Notifications are hints: the receiver also polls, so one lost (no listener connected, a
 * connection dropped) only delays the work.
 */

/** The notification channel. */
export const WORK_CHANNEL = 'taskspace_work';

/** What can be notified. */
export type WorkTopic = 'events' | 'runs' | 'deliveries';

const TOPICS: ReadonlySet<string> = new Set<WorkTopic>(['events', 'runs', 'deliveries']);

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
 * every {@link RECONNECT_MS}, until stopped.
 */
export class WorkListener {
  private client: pg.Client | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly onTopic: (topic: WorkTopic) => void,
    private readonly log: WorkerLog,
  ) {}

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
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      if (message.channel === WORK_CHANNEL && message.payload && TOPICS.has(message.payload)) this.onTopic(message.payload as WorkTopic);
    });
    const failed = (error: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
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
    } catch (error) {
      failed(error as Error);
    }
  }
}
