import { timingSafeEqual } from 'node:crypto';
import type { Query, Sql } from '../../platform/db/query';
import type { SecretBox } from '../../platform/secret-box';

/**
 * Each person's choice of notification mails (docs/email.md "Notifications"; table
 * `mail_preferences`): per kind, `immediate` (the default), `digest` (gathered into one mail per
 * `TASKSPACE_MAIL_DIGEST_MINUTES`) or `off`. Invitations and password resets are not notifications:
 * they always go out.
 */

/** The notification kinds a person chooses for. */
export const NOTIFICATION_KINDS = ['assignment', 'mention', 'approval', 'failure'] as const;
/** One of {@link NOTIFICATION_KINDS}. */
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
/** How a person gets one kind of notification. */
export const NOTIFICATION_MODES = ['immediate', 'digest', 'off'] as const;
/** One of {@link NOTIFICATION_MODES}. */
export type NotificationMode = (typeof NOTIFICATION_MODES)[number];

/** A person's choice for every kind. */
export type MailPreferences = Record<NotificationKind, NotificationMode>;

/** The choices of `userId`, `immediate` where they chose nothing. */
export function* preferencesOf(q: Sql, userId: string): Query<MailPreferences> {
  const rows = yield* q.all<{ kind: string; mode: string }>('SELECT kind, mode FROM mail_preferences WHERE user_id = ?', [userId]);
  const prefs = Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, 'immediate'])) as MailPreferences;
  for (const row of rows) {
    if ((NOTIFICATION_KINDS as readonly string[]).includes(row.kind)) prefs[row.kind as NotificationKind] = row.mode as NotificationMode;
  }
  return prefs;
}

/** Records `userId`'s choices for the kinds in `changes` (the others stay). */
export function* setPreferences(q: Sql, userId: string, changes: Partial<MailPreferences>): Query<void> {
  for (const kind of NOTIFICATION_KINDS) {
    const mode = changes[kind];
    if (mode === undefined) continue;
    yield* q.run(
      'INSERT INTO mail_preferences (user_id, kind, mode) VALUES (?, ?, ?) ON CONFLICT (user_id, kind) DO UPDATE SET mode = excluded.mode',
      [userId, kind, mode],
    );
  }
}

/** Purpose of the unsubscribe MAC (platform/secret-box.ts `mac`). */
const UNSUBSCRIBE_PURPOSE = 'mail-unsubscribe';

/**
 * The token of a notification's unsubscribe link: `<userId>.<kind>.<HMAC>` under the app's key,
 * so the link needs no stored row and cannot be forged for another person or kind.
 */
export function unsubscribeToken(box: SecretBox, userId: string, kind: NotificationKind): string {
  return `${userId}.${kind}.${box.mac(UNSUBSCRIBE_PURPOSE, `${userId}.${kind}`)}`;
}

/** The person and kind an unsubscribe token names, or undefined when it is not one of ours. */
export function readUnsubscribeToken(box: SecretBox, token: string): { userId: string; kind: NotificationKind } | undefined {
  const [userId, kind, mac, extra] = token.split('.');
  if (!userId || !kind || !mac || extra !== undefined || !(NOTIFICATION_KINDS as readonly string[]).includes(kind)) return undefined;
  const expected = Buffer.from(box.mac(UNSUBSCRIBE_PURPOSE, `${userId}.${kind}`));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return { userId, kind: kind as NotificationKind };
}

/** Records `userId`'s choices and returns them all, in one transaction (`PUT /api/v1/me/mail-preferences`). */
export function updatePreferences(q: Sql, userId: string, changes: Partial<MailPreferences>): Query<MailPreferences> {
  return q.transaction(function* (tx) {
    yield* setPreferences(tx, userId, changes);
    return yield* preferencesOf(tx, userId);
  });
}

/**
 * Turns off the kind of notification an unsubscribe token names, for its person.
 * @returns the kind, or undefined when the token is not valid (or its person is gone).
 */
export function* unsubscribe(q: Sql, box: SecretBox, token: string): Query<NotificationKind | undefined> {
  const target = readUnsubscribeToken(box, token);
  if (!target) return undefined;
  if (!(yield* q.get<{ id: string }>('SELECT id FROM users WHERE id = ?', [target.userId]))) return undefined;
  yield* setPreferences(q, target.userId, { [target.kind]: 'off' });
  return target.kind;
}
