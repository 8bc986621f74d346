import type { Query } from '../../platform/db/query';
import type { Services } from '../../services';
import { enqueueMail } from './outbox';
import { digestMail } from './templates/notifications';

/**
 * Digests (docs/email.md "Notifications"): notifications a person chose to get as a digest wait in
 * the outbox as `held`; once the oldest is `TASKSPACE_MAIL_DIGEST_MINUTES` old, one mail lists them
 * all (one line and link each) and they become `digested`, in one transaction. Run by the leader.
 */

/** Most notifications one digest lists; the rest go in the next one. */
const DIGEST_MAX_ITEMS = 100;

/**
 * Sends the digests that are due at `now`: one transaction per person.
 * @returns (resolves to) how many digests were queued.
 */
export async function sendDueDigests(svc: Services): Promise<number> {
  const { store, clock, config } = svc;
  const now = clock.now();
  const due = await store.run(
    store.sql.all<{ userId: string }>(
      `SELECT user_id AS "userId" FROM mail_outbox WHERE status = 'held' AND user_id IS NOT NULL
        GROUP BY user_id HAVING min(created_at) <= ?`,
      [now - config.mail.digestMs],
    ),
  );
  let queued = 0;
  for (const { userId } of due) if (await store.run(digestFor(svc, userId, now))) queued++;
  return queued;
}

function digestFor(svc: Services, userId: string, now: number): Query<boolean> {
  return svc.store.sql.transaction(function* (tx) {
    const items = yield* tx.all<{ id: string; subject: string; link: string | null }>(
      "SELECT id, subject, link FROM mail_outbox WHERE status = 'held' AND user_id = ? ORDER BY created_at LIMIT ?",
      [userId, DIGEST_MAX_ITEMS],
    );
    const user = yield* tx.get<{ email: string | null }>('SELECT email FROM users WHERE id = ?', [userId]);
    if (items.length === 0) return false;
    const ids = items.map((i) => i.id);
    yield* tx.run(`UPDATE mail_outbox SET status = 'digested', sent_at = ? WHERE id IN (${ids.map(() => '?').join(', ')})`, [now, ...ids]);
    if (!user?.email) return false;
    const mail = digestMail({ items, settingsUrl: svc.links.url('/settings/account') });
    yield* enqueueMail(tx, svc.config, { kind: 'digest', to: [user.email], userId, ...mail }, now);
    return true;
  });
}

/**
 * Deletes the outbox rows that are done (`sent`, `failed`, `digested`) and older than
 * `TASKSPACE_WEBHOOKS_LOG_RETENTION_DAYS` (0 keeps them forever), at most 1,000 at a time. Run by the leader.
 * @returns (resolves to) how many were deleted.
 */
export async function pruneMail(svc: Services): Promise<number> {
  const days = svc.config.webhooks.logRetentionDays;
  if (days === 0) return 0;
  const { store, clock } = svc;
  const before = clock.now() - days * 86_400_000;
  const { changes } = await store.run(
    store.sql.run(
      `DELETE FROM mail_outbox WHERE id IN (SELECT id FROM mail_outbox
         WHERE status IN ('sent', 'failed', 'digested') AND created_at < ? LIMIT 1000)`,
      [before],
    ),
  );
  return changes;
}
