import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';
import { DeliveryWorker } from '../webhooks/delivery-worker';
import { OutboxCursor, WEBHOOK_CURSOR } from './cursors';
import { dispatchEvents } from './dispatcher';
import { DueScheduler } from './due-scheduler';
import { GuardedHttp } from '../../platform/guarded-http';
import { WorkerLoop, type WorkerLog } from '../../platform/worker-loop';
import { pruneExpired } from './retention';

/**
 * The background workers of events and webhooks: the outbox dispatcher, the delivery worker,
 * the `task.due` scheduler and the log retention. They run while the server listens; everything they need is in
 * the database, so a restart resumes where the last commit left off.
 */

/** Events read per dispatcher transaction. */
const DISPATCH_BATCH = 500;

/** How often expired log rows are pruned, in ms (more often while a backlog remains). */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/** Running workers. */
export interface EventWorkers {
  /** Stops every worker and waits for deliveries in flight to settle (they stay queued). */
  stop(): Promise<void>;
}

/**
 * Starts the workers. The dispatcher wakes on `svc.signals` topic `events` and at least every
 * `TASKSPACE_WEBHOOKS_POLL_MS`; the delivery worker when the dispatcher queued deliveries, when an
 * attempt finishes and at each due retry.
 */
export function startEventWorkers(svc: Services, log: WorkerLog): EventWorkers {
  const http = new GuardedHttp(svc.addressPolicy);
  const delivery = new DeliveryWorker(svc, http, log);
  const cursor = new OutboxCursor(svc.store, svc.clock, WEBHOOK_CURSOR);
  const dispatcher = new WorkerLoop(
    'outbox dispatcher',
    async () => {
      const result = await dispatchEvents(svc, cursor, DISPATCH_BATCH);
      if (result.deliveries > 0) delivery.wake();
      return result.events === DISPATCH_BATCH ? 0 : svc.config.webhooks.pollMs;
    },
    log,
  );
  const due = new DueScheduler(svc, log, () => dispatcher.wake());
  const pruner = new WorkerLoop(
    'delivery log retention',
    async () => ((await svc.store.run(pruneExpired(svc))) > 0 ? 1000 : PRUNE_EVERY_MS),
    log,
    PRUNE_EVERY_MS,
  );
  const unsubscribe = [svc.signals?.on('events', () => dispatcher.wake())];
  delivery.start();
  dispatcher.start();
  due.start();
  pruner.start();
  return {
    async stop() {
      for (const off of unsubscribe) off?.();
      await due.stop();
      await pruner.stop();
      await dispatcher.stop();
      await cursor.flush();
      await delivery.stop();
      await http.close();
    },
  };
}

/**
 * Wires the workers into a Fastify app: start on listen when this process leads (or when it takes
 * over), stop before close (while the database is still open), and signal `events` after every
 * write request so deliveries go out promptly (another process's leader by NOTIFY).
 * Call before registering routes (hooks apply to routes registered after them).
 */
export function installEventWorkers(app: FastifyInstance, svc: Services): void {
  let workers: EventWorkers | undefined;
  app.addHook('onListen', async () => {
    // The leader does this work, once per database: this process now, or when it takes over.
    svc.leadership.whenLeading(() => {
      workers ??= startEventWorkers(svc, app.log);
    });
  });
  app.addHook('preClose', async () => {
    await workers?.stop();
    workers = undefined;
  });
  app.addHook('onResponse', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
    svc.signals?.notify('events');
    if (!svc.leadership.leading) svc.workNotifier?.notify('events');
  });
}
