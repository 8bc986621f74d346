import type { Query, Sql } from '../../platform/db/query';
import type { Services } from '../../services';
import { OutboxCursor, MAIL_CURSOR } from '../events/cursors';
import { ROLES } from '../../auth/roles';
import { enqueueMail, mailEnabled, type MailKind } from './outbox';
import { preferencesOf, unsubscribeToken, type NotificationKind } from './preferences';
import { approvalMail, assignmentMail, failureMail, mentionMail } from './templates/notifications';
import type { RenderedMail } from './templates/layout';

/**
 * The notification mails (docs/email.md "Notifications"): an outbox reader (cursor `mail`) run
 * by the leader that turns events into mails, written with the cursor's advance in one
 * transaction, so each event is mailed once even across a crash:
 * - `task.assigned` → each newly added assignee (not the one who assigned), kind `assignment`;
 * - `comment.created` → each member `@mentioned` in the comment (not its author), kind `mention`;
 * - `approval.requested` → each approver (Participants and above when none is named), kind
 *   `approval`, with the decision page's link (deciding is a separate step there: a GET decides nothing);
 * - `automation.failed` → the automation's Owner, kind `failure`.
 * A person gets it at once, in their digest, or not at all, as they chose (preferences.ts); a
 * person without an email or no longer a member gets nothing. Without mail configured, the reader
 * only moves its cursor.
 */

/** Events read per transaction. */
const BATCH = 200;

interface EventRow {
  seq: number;
  type: string;
  workspaceId: string;
  payloadJson: string;
}

/** A member who may be mailed. */
interface Recipient {
  userId: string;
  handle: string;
  email: string;
}

/** `@handle` mentions in a comment's text (a trailing dot ends a sentence, not the handle). */
export function mentionedHandles(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/(?:^|[^A-Za-z0-9._@-])@([A-Za-z0-9][A-Za-z0-9._-]{0,38})/g)) {
    found.add(match[1]!.replace(/[.]+$/, '').toLowerCase());
  }
  return [...found];
}

/** The members of `workspaceId` among `handles` who have an email. */
function* membersByHandle(q: Sql, workspaceId: string, handles: readonly string[]): Query<Recipient[]> {
  const out: Recipient[] = [];
  for (const handle of handles) {
    const row = yield* q.get<Recipient>(
      `SELECT u.id AS "userId", u.handle, u.email FROM users u JOIN workspace_members m ON m.user_id = u.id
        WHERE m.workspace_id = ? AND lower(u.handle) = lower(?) AND u.email IS NOT NULL`,
      [workspaceId, handle],
    );
    if (row) out.push(row);
  }
  return out;
}

/** The members of `workspaceId` with at least `min` role and an email. */
function* membersFrom(q: Sql, workspaceId: string, min: (typeof ROLES)[number]): Query<Recipient[]> {
  const roles = ROLES.slice(ROLES.indexOf(min));
  return yield* q.all<Recipient>(
    `SELECT u.id AS "userId", u.handle, u.email FROM users u JOIN workspace_members m ON m.user_id = u.id
      WHERE m.workspace_id = ? AND m.role IN (${roles.map(() => '?').join(', ')}) AND u.email IS NOT NULL ORDER BY u.handle`,
    [workspaceId, ...roles],
  );
}

/** The Owner of an automation, when still a member with an email. */
function* automationOwner(q: Sql, workspaceId: string, automationId: string): Query<Recipient[]> {
  const row = yield* q.get<Recipient>(
    `SELECT u.id AS "userId", u.handle, u.email FROM automations a JOIN users u ON u.id = a.owner_id
       JOIN workspace_members m ON m.user_id = u.id AND m.workspace_id = a.workspace_id
      WHERE a.id = ? AND a.workspace_id = ? AND u.email IS NOT NULL`,
    [automationId, workspaceId],
  );
  return row ? [row] : [];
}

/** What one event mails: to whom, as which kind, saying what. */
interface Notification {
  kind: NotificationKind;
  recipients: Recipient[];
  render(settingsUrl: string): RenderedMail;
  link: string;
}

type Payload = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The notification an event calls for, if any. */
function* notificationFor(q: Sql, svc: Services, event: EventRow): Query<Notification | undefined> {
  const p = JSON.parse(event.payloadJson) as Payload;
  const ws = event.workspaceId;
  switch (event.type) {
    case 'task.assigned': {
      const by = str(p.assignedBy).toLowerCase();
      const added = (Array.isArray(p.added) ? p.added : [])
        .map((a) => str((a as Payload).handle))
        .filter((h) => h && h.toLowerCase() !== by);
      const link = str(p.projectLink);
      const input = { by: `@${str(p.assignedBy) || 'someone'}`, task: str(p.nodeText), project: str(p.projectTitle), link };
      return {
        kind: 'assignment',
        recipients: yield* membersByHandle(q, ws, added),
        link,
        render: (settingsUrl) => assignmentMail({ ...input, settingsUrl }),
      };
    }
    case 'comment.created': {
      const author = str(p.author).toLowerCase();
      const handles = mentionedHandles(str(p.commentText)).filter((h) => h !== author);
      const link = str(p.projectLink);
      const input = { by: `@${str(p.author)}`, task: str(p.nodeText), project: str(p.projectTitle), comment: str(p.commentText), link };
      return {
        kind: 'mention',
        recipients: yield* membersByHandle(q, ws, handles),
        link,
        render: (settingsUrl) => mentionMail({ ...input, settingsUrl }),
      };
    }
    case 'approval.requested': {
      const approvers = (Array.isArray(p.approvers) ? p.approvers : []).map(str).filter(Boolean);
      const recipients = approvers.length > 0 ? yield* membersByHandle(q, ws, approvers) : yield* membersFrom(q, ws, 'Participant');
      const link = str(p.decisionLink);
      const input = { automation: str(p.automationName), message: str(p.message), link, test: p.test === true };
      return { kind: 'approval', recipients, link, render: (settingsUrl) => approvalMail({ ...input, settingsUrl }) };
    }
    case 'automation.failed': {
      const error = (p.error ?? {}) as Payload;
      const link = str(p.runLink);
      const input = { automation: str(p.automationName), error: `${str(error.code)}: ${str(error.message)}`, link };
      return {
        kind: 'failure',
        recipients: yield* automationOwner(q, ws, str(p.automationId)),
        link,
        render: (settingsUrl) => failureMail({ ...input, settingsUrl }),
      };
    }
    default:
      return undefined;
  }
}

/** Queues the mails `events` call for on `tx`, each person's choice applied. @returns how many were queued to send now. */
function* queueNotifications(tx: Sql, svc: Services, events: readonly EventRow[]): Query<number> {
  const now = svc.clock.now();
  const settingsUrl = svc.links.url('/settings/account');
  let immediate = 0;
  for (const event of events) {
    const note = yield* notificationFor(tx, svc, event);
    if (!note) continue;
    const mail = note.render(settingsUrl);
    for (const to of note.recipients) {
      const mode = (yield* preferencesOf(tx, to.userId))[note.kind];
      if (mode === 'off') continue;
      const unsubscribe = svc.links.url(`/api/v1/mail/unsubscribe?token=${unsubscribeToken(svc.secretBox, to.userId, note.kind)}`);
      yield* enqueueMail(
        tx,
        svc.config,
        {
          kind: note.kind as MailKind,
          to: [to.email],
          workspaceId: event.workspaceId,
          userId: to.userId,
          ...mail,
          link: note.link,
          held: mode === 'digest',
          headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        },
        now,
      );
      if (mode === 'immediate') immediate++;
    }
  }
  return immediate;
}

/** The event types that may mail someone. */
const MAILED_TYPES = new Set(['task.assigned', 'comment.created', 'approval.requested', 'automation.failed']);

/**
 * Handles up to {@link BATCH} events after `cursor`: reads their types, then the payloads of the
 * ones that may mail someone. Without mail configured, only moves the cursor to the newest event.
 * @returns (resolves to) how many events were read and how many mails were queued to send now.
 */
export async function notifyEvents(svc: Services, cursor: OutboxCursor): Promise<{ events: number; mails: number }> {
  const { store } = svc;
  const after = await cursor.get();
  if (!mailEnabled(svc.config)) {
    const newest = (await store.run(store.sql.get<{ seq: number | null }>('SELECT max(seq) AS seq FROM events')))?.seq ?? 0;
    if (newest > after) await cursor.advance(newest);
    return { events: 0, mails: 0 };
  }
  const heads = await store.run(
    store.sql.all<{ seq: number; type: string }>('SELECT seq, type FROM events WHERE seq > ? ORDER BY seq LIMIT ?', [after, BATCH]),
  );
  if (heads.length === 0) return { events: 0, mails: 0 };
  const last = heads[heads.length - 1]!.seq;
  const wanted = heads.filter((h) => MAILED_TYPES.has(h.type)).map((h) => h.seq);
  if (wanted.length === 0) {
    await cursor.advance(last);
    return { events: heads.length, mails: 0 };
  }
  const relevant = await store.run(
    store.sql.all<EventRow>(
      `SELECT seq, type, workspace_id AS "workspaceId", payload_json AS "payloadJson" FROM events
        WHERE seq IN (${wanted.map(() => '?').join(', ')}) ORDER BY seq`,
      wanted,
    ),
  );
  const mails = (await cursor.commitWith(last, (tx) => queueNotifications(tx, svc, relevant))) ?? 0;
  return { events: heads.length, mails };
}

/** A new cursor for the notifier. */
export function notifierCursor(svc: Services): OutboxCursor {
  return new OutboxCursor(svc.store, svc.clock, MAIL_CURSOR);
}
