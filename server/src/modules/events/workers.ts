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
 * The background workers of events and webhooks: the outbox dispatcher, the `task.due` scheduler
 * and the log retention, run by the leader (platform/leadership.ts), and the delivery worker, run
 * by every process doing background work (deliveries are claimed row by row, so several processes
 * share them). They run while the server listens; everything they need is in the database, so a
 * restart resumes where the last commit left off.
 */

/** Events read per dispatcher transaction. */
const DISPATCH_BATCH = 500;

/** How often expired log rows are pruned, in ms (more often while a backlog remains). */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/** Running workers. */
export interface EventWorkers {
  /** Stops the workers and waits for what is in flight to settle (deliveries stay queued). */
  stop(): Promise<void>;
}

/**
 * Starts the delivery worker: woken by the dispatcher of this process (`wake`) or, on signal
 * `deliveries`, of the leader in another process (by `NOTIFY`), when an attempt finishes and at
 * each due retry, and looking at least every `TASKSPACE_WEBHOOKS_POLL_MS`.
 */
function startDeliveries(svc: Services, log: WorkerLog): EventWorkers & { wake(): void; sweepSoon(): void } {
  const http = new GuardedHttp(svc.addressPolicy);
  const delivery = new DeliveryWorker(svc, http, log);
  const off = svc.signals?.on('deliveries', () => delivery.wake());
  delivery.start();
  return {
    wake: () => delivery.wake(),
    sweepSoon: () => delivery.sweepSoon(),
    async stop() {
      off?.();
      await delivery.stop();
      await http.close();
    },
  };
}

/**
 * Starts the leader's workers. The dispatcher wakes on `svc.signals` topic `events` and at least
 * every `TASKSPACE_WEBHOOKS_POLL_MS`, and wakes `deliveries` (and, by `NOTIFY`, the other
 * processes' delivery workers) when it queued some.
 */
function startLeaderWorkers(svc: Services, log: WorkerLog, deliveries: { wake(): void }): EventWorkers {
  const cursor = new OutboxCursor(svc.store, svc.clock, WEBHOOK_CURSOR);
  const dispatcher = new WorkerLoop(
    'outbox dispatcher',
    async () => {
      // A leader that was stalled past its lease does nothing until it knows it still leads.
      if (!svc.leadership.leading) return svc.config.webhooks.pollMs;
      const result = await dispatchEvents(svc, cursor, DISPATCH_BATCH);
      if (result.deliveries > 0) {
        deliveries.wake();
        // The other processes sending deliveries claim their share at once.
        svc.workNotifier?.notify('deliveries');
      }
      return result.events === DISPATCH_BATCH ? 0 : svc.config.webhooks.pollMs;
    },
    log,
  );
  const due = new DueScheduler(svc, log, () => dispatcher.wake());
  const pruner = new WorkerLoop(
    'delivery log retention',
    async () => {
      if (!svc.leadership.leading) return svc.config.webhooks.pollMs;
      return (await svc.store.run(pruneExpired(svc))) > 0 ? 1000 : PRUNE_EVERY_MS;
    },
    log,
    PRUNE_EVERY_MS,
  );
  const unsubscribe = [svc.signals?.on('events', () => dispatcher.wake())];
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
    },
  };
}

/**
 * Wires the workers into a Fastify app: deliveries start on listen in every process doing
 * background work, the rest when this process leads (now or when it takes over); all stop before
 * close (while the database is still open). Every write request signals `events` so deliveries go
 * out promptly (to the leader in another process by NOTIFY).
 * Call before registering routes (hooks apply to routes registered after them).
 */
export function installEventWorkers(app: FastifyInstance, svc: Services): void {
  let deliveries: (EventWorkers & { wake(): void; sweepSoon(): void }) | undefined;
  let leading: EventWorkers | undefined;
  app.addHook('onListen', async () => {
    if (svc.config.role === 'api') return;
    const sender = (deliveries ??= startDeliveries(svc, app.log));
    // The rest is the leader's, once per database: this process now, or when it takes over.
    svc.leadership.whenLeading(() => {
      // A take-over: what the last leader had in flight goes back to the queue now, not at the next look.
      if (leading === undefined) sender.sweepSoon();
      leading ??= startLeaderWorkers(svc, app.log, sender);
    });
  });
  app.addHook('preClose', async () => {
    await leading?.stop();
    leading = undefined;
    await deliveries?.stop();
    deliveries = undefined;
  });
  app.addHook('onResponse', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
    svc.signals?.notify('events');
    if (!svc.leadership.leading) svc.workNotifier?.notify('events');
  });
}
