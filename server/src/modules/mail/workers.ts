import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';
import { WorkerLoop } from '../../platform/worker-loop';
import { MailSender } from './sender';
import { mailEnabled } from './outbox';
import { notifierCursor, notifyEvents } from './notifier';
import { pruneMail, sendDueDigests } from './digest';

/** How often the leader deletes old mails that are done, in ms (10 minutes; more often while a backlog remains). */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/** How often the leader looks for digests that are due, in ms (at most; shorter digests look more often). */
const DIGEST_LOOK_MS = 60_000;

/**
 * Wires outgoing mail into a Fastify app (docs/email.md). Every process doing background work
 * (`all`, `worker`) runs a {@link MailSender} from listen to close, woken in-process on signal
 * `mail` and polling every `TASKSPACE_MAIL_POLL_MS` (an idle poll is one read); the leader also
 * runs the notifier (events → notification mails; notifier.ts), the retention of old mails and,
 * with `TASKSPACE_SMTP_URL` set, the digests (digest.ts). Without it nothing is queued but the mails of automations that name a
 * workspace's own SMTP server, and the notifier only moves its cursor (so outbox retention is not
 * held back). Call before registering routes.
 */
export function installMail(app: FastifyInstance, svc: Services): void {
  let sender: MailSender | undefined;
  let leading: WorkerLoop[] = [];
  let flushCursor: (() => Promise<void>) | undefined;
  const offs: (() => void)[] = [];
  app.addHook('onListen', async () => {
    if (svc.config.role === 'api') return;
    const enabled = mailEnabled(svc.config);
    // Also without the service's SMTP server: automations may mail through a workspace's own.
    sender ??= new MailSender(svc, app.log);
    const current = sender;
    offs.push(svc.signals?.on('mail', () => current.wake()) ?? (() => undefined));
    sender.start();
    svc.leadership.whenLeading(() => {
      if (leading.length > 0) return;
      const cursor = notifierCursor(svc);
      const poll = svc.config.webhooks.pollMs;
      const notifier = new WorkerLoop(
        'mail notifier',
        async () => {
          if (!svc.leadership.leading) return poll;
          const { events, mails } = await notifyEvents(svc, cursor);
          if (mails > 0) svc.signals?.notify('mail');
          return events > 0 ? 0 : poll;
        },
        app.log,
      );
      let lastPrune = 0;
      const digests = new WorkerLoop(
        'mail digests and retention',
        async () => {
          const look = Math.min(DIGEST_LOOK_MS, Math.max(200, Math.floor(svc.config.mail.digestMs / 4)));
          if (!svc.leadership.leading) return look;
          if (enabled && (await sendDueDigests(svc)) > 0) svc.signals?.notify('mail');
          if (Date.now() - lastPrune >= PRUNE_EVERY_MS) {
            if ((await pruneMail(svc)) < 1000) lastPrune = Date.now();
          }
          return look;
        },
        app.log,
      );
      offs.push(svc.signals?.on('events', () => notifier.wake()) ?? (() => undefined));
      notifier.start();
      digests.start();
      leading = [notifier, digests];
      flushCursor = () => cursor.flush();
    });
  });
  app.addHook('preClose', async () => {
    for (const off of offs.splice(0)) off();
    for (const loop of leading) await loop.stop();
    leading = [];
    await flushCursor?.();
    flushCursor = undefined;
    await sender?.stop();
    sender = undefined;
  });
}
