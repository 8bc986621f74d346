import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';
import { MailSender } from './sender';
import { mailEnabled } from './outbox';

/**
 * Wires outgoing mail into a Fastify app (docs/email.md): with `TASKSPACE_SMTP_URL` set, every
 * process doing background work (`all`, `worker`) runs a {@link MailSender} from listen to close,
 * woken in-process on signal `mail` and polling every `TASKSPACE_MAIL_POLL_MS`. Without it
 * nothing runs. Call before registering routes.
 */
export function installMail(app: FastifyInstance, svc: Services): void {
  let sender: MailSender | undefined;
  let off: (() => void) | undefined;
  app.addHook('onListen', async () => {
    if (svc.config.role === 'api' || !mailEnabled(svc.config)) return;
    sender ??= new MailSender(svc, app.log);
    off = svc.signals?.on('mail', () => sender?.wake());
    sender.start();
  });
  app.addHook('preClose', async () => {
    off?.();
    await sender?.stop();
    sender = undefined;
  });
}
