import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';
import { WorkerLoop, type WorkerLog } from '../../platform/worker-loop';
import { purgeExpiredTrash, TRASH_PURGE_BATCH } from './service';

/** How often the leader looks for expired deleted-tasks entries, in ms (at once again while a full batch went). */
const PURGE_EVERY_MS = 10 * 60 * 1000;

/**
 * Wires the deleted-tasks retention into the app, as the run retention (modules/runs/run-retention.ts):
 * a loop started when this process leads (never in an `api` process) that purges entries older
 * than `TASKSPACE_TRASH_RETENTION_DAYS`, stopped before close.
 */
export function installTrashRetention(app: FastifyInstance, svc: Services): void {
  let loop: WorkerLoop | undefined;
  app.addHook('onListen', async () => {
    if (svc.config.role === 'api') return;
    svc.leadership.whenLeading(() => {
      loop ??= purgeLoop(svc, app.log);
      loop.start();
    });
  });
  app.addHook('preClose', async () => {
    await loop?.stop();
    loop = undefined;
  });
}

function purgeLoop(svc: Services, log: WorkerLog): WorkerLoop {
  return new WorkerLoop(
    'deleted tasks retention',
    async () => {
      if (!svc.leadership.leading) return svc.config.webhooks.pollMs;
      return (await svc.store.run(purgeExpiredTrash(svc))) === TRASH_PURGE_BATCH ? 1000 : PURGE_EVERY_MS;
    },
    log,
    PURGE_EVERY_MS,
  );
}
