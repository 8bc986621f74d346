import type { Query, Sql } from '../platform/db/query';
import { requireWorkspace, roleIn } from '../auth/access';
import type { Actor } from '../auth/tokens';
import type { Services } from '../services';
import { badRequest, conflict, notFound, forbidden, ServiceError } from '../errors';
import { newId, newSecret } from '../platform/ids';
import { hashToken } from '../auth/tokens';
import { ROLES, isRole, roleAtLeast, type Role } from '../auth/roles';
import { HANDLE_PATTERN } from '../modules/users/service';
import { EMAIL_PATTERN } from './credentials';
import { enqueueMail, mailEnabled } from '../modules/mail/outbox';
import { invitationMail } from '../modules/mail/templates/invitation';

/**
 * The role needed to invite. An invitation stays valid only while its inviter holds it: demoting
 * or removing the inviter withdraws their pending invitations, and accepting checks it again.
 */
export const INVITER_ROLE: Role = 'Owner';

/** How long an invitation link stays valid, in ms: 7 days. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** An invitation as Owners see it (never its token). Times in ms since the epoch. */
export interface Invitation {
  id: string;
  workspaceId: string;
  role: Role;
  email: string | null;
  handle: string | null;
  createdAt: number;
  expiresAt: number;
}

const COLUMNS = 'id, workspace_id AS "workspaceId", role, email, handle, created_at AS "createdAt", expires_at AS "expiresAt"';

/*
 * Service functions here take `svc` and run on `svc.store.sql` (one transaction where stated);
 * helpers that take a handle `q` first run on that handle, so they can join the caller's transaction.
 */

/**
 * Owners: invite a person (by email or by handle, exactly one) to a workspace with a role.
 * Returns the invitation and its token (256 random bits; only its hash is stored), valid once
 * for {@link INVITATION_TTL_MS}. An invitation by email is mailed when mail is configured
 * (`mailed`), in the same transaction (docs/email.md).
 * @throws ServiceError 400 for a bad role, email or handle, or when both or neither are given;
 *   403/404 from the workspace access check.
 */
export function createInvitation(
  svc: Services,
  actor: Actor,
  input: { workspaceId: string; role: unknown; email?: string; handle?: string },
): Query<{ invitation: Invitation; token: string; mailed: boolean }> {
  return svc.store.sql.transaction((tx) => inviteOn(tx, svc, actor, input));
}

/** {@link createInvitation} on the transaction `q`. */
function* inviteOn(
  q: Sql,
  svc: Services,
  actor: Actor,
  input: { workspaceId: string; role: unknown; email?: string; handle?: string },
): Query<{ invitation: Invitation; token: string; mailed: boolean }> {
  const now = svc.clock.now();
  yield* requireWorkspace(q, actor, input.workspaceId, INVITER_ROLE, 'inviting');
  if (typeof input.role !== 'string' || !isRole(input.role))
    throw badRequest('role', 'invalid_value', `role must be one of ${ROLES.join(', ')}`);
  if ((input.email === undefined) === (input.handle === undefined)) {
    throw badRequest('email', 'email_or_handle', 'give exactly one of email and handle');
  }
  if (input.email !== undefined && (input.email.length > 254 || !EMAIL_PATTERN.test(input.email))) {
    throw badRequest('email', 'invalid_format', `invalid email '${input.email}'`);
  }
  if (input.handle !== undefined && !HANDLE_PATTERN.test(input.handle))
    throw badRequest('handle', 'invalid_format', `invalid handle '${input.handle}'`);
  const token = newSecret(32);
  const invitation: Invitation = {
    id: newId(),
    workspaceId: input.workspaceId,
    role: input.role,
    email: input.email ?? null,
    handle: input.handle ?? null,
    createdAt: now,
    expiresAt: now + INVITATION_TTL_MS,
  };
  yield* q.run(
    `INSERT INTO invitations (id, workspace_id, role, email, handle, token_hash, invited_by, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      invitation.id,
      invitation.workspaceId,
      invitation.role,
      invitation.email,
      invitation.handle,
      hashToken(token),
      actor.userId,
      now,
      invitation.expiresAt,
    ],
  );
  const mailed = invitation.email !== null && mailEnabled(svc.config);
  if (mailed) yield* mailInvitation(q, svc, actor, invitation, token, now);
  return { invitation, token, mailed };
}

/** Queues the invitation mail to `invitation.email` (docs "Invitations and members"; docs/email.md). */
function* mailInvitation(q: Sql, svc: Services, actor: Actor, invitation: Invitation, token: string, now: number): Query<void> {
  const names = yield* q.get<{ workspaceName: string; displayName: string }>(
    'SELECT w.name AS "workspaceName", u.display_name AS "displayName" FROM workspaces w, users u WHERE w.id = ? AND u.id = ?',
    [invitation.workspaceId, actor.userId],
  );
  const mail = invitationMail({
    inviter: names?.displayName ? `${names.displayName} (@${actor.handle})` : `@${actor.handle}`,
    workspaceName: names?.workspaceName ?? 'a workspace',
    role: invitation.role,
    link: svc.links.url(`/invite?token=${token}`),
    validDays: INVITATION_TTL_MS / 86_400_000,
  });
  yield* enqueueMail(q, svc.config, { kind: 'invitation', to: [invitation.email!], workspaceId: invitation.workspaceId, ...mail }, now);
}

/** Owners: a workspace's pending invitations (not accepted, revoked or expired), newest first. @throws ServiceError 403/404 from the access check. */
export function* listInvitations(svc: Services, actor: Actor, workspaceId: string): Query<Invitation[]> {
  const q = svc.store.sql;
  yield* requireWorkspace(q, actor, workspaceId, 'Owner', 'listing invitations');
  const now = svc.clock.now();
  return yield* q.all<Invitation>(
    `SELECT ${COLUMNS} FROM invitations
      WHERE workspace_id = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ? ORDER BY created_at DESC`,
    [workspaceId, now],
  );
}

/**
 * Owners: withdraw a pending invitation.
 * @throws ServiceError 404 when the workspace has no such pending invitation; 403/404 from the access check.
 */
export function* revokeInvitation(svc: Services, actor: Actor, workspaceId: string, invitationId: string): Query<void> {
  const q = svc.store.sql;
  yield* requireWorkspace(q, actor, workspaceId, 'Owner', 'withdrawing invitations');
  const { changes } = yield* q.run(
    'UPDATE invitations SET revoked_at = ? WHERE id = ? AND workspace_id = ? AND accepted_at IS NULL AND revoked_at IS NULL',
    [svc.clock.now(), invitationId, workspaceId],
  );
  if (changes !== 1) throw notFound('invitation', invitationId);
}

/**
 * The usable invitation behind `token`: not withdrawn, used or expired, and its inviter still
 * holds {@link INVITER_ROLE} in its workspace (an invitation cannot outlive its inviter's right
 * to grant the role).
 * @throws ServiceError 400 VALIDATION_ERROR, field `token`, reason `invalid_link`, `link_used` or
 *   `link_expired`; 403 FORBIDDEN, field `token`, reason `inviter_not_allowed`.
 */
export function* checkInvitation(q: Sql, token: unknown, now: number): Query<Invitation> {
  const row =
    typeof token === 'string' && token
      ? yield* q.get<Invitation & { acceptedAt: number | null; revokedAt: number | null; invitedBy: string | null }>(
          `SELECT ${COLUMNS}, accepted_at AS "acceptedAt", revoked_at AS "revokedAt", invited_by AS "invitedBy" FROM invitations WHERE token_hash = ?`,
          [hashToken(token)],
        )
      : undefined;
  if (!row || row.revokedAt !== null) throw badRequest('token', 'invalid_link', 'this invitation is not valid');
  if (row.acceptedAt !== null) throw badRequest('token', 'link_used', 'this invitation has already been used');
  if (row.expiresAt <= now) throw badRequest('token', 'link_expired', 'this invitation has expired; ask for a new one');
  const inviterRole = row.invitedBy === null ? undefined : yield* roleIn(q, row.invitedBy, row.workspaceId);
  if (!inviterRole || !roleAtLeast(inviterRole, INVITER_ROLE)) {
    throw new ServiceError(
      403,
      'FORBIDDEN',
      `the person who sent this invitation is no longer an ${INVITER_ROLE} of the workspace; ask an ${INVITER_ROLE} for a new one`,
      {
        field: 'token',
        reason: 'inviter_not_allowed',
      },
    );
  }
  const { acceptedAt: _a, revokedAt: _r, invitedBy: _i, ...invitation } = row;
  return invitation;
}

/** Withdraws the pending invitations `userId` sent for a workspace (they lost the right to invite). */
function* withdrawInvitationsBy(q: Sql, workspaceId: string, userId: string, now: number): Query<void> {
  yield* q.run(
    'UPDATE invitations SET revoked_at = ? WHERE workspace_id = ? AND invited_by = ? AND accepted_at IS NULL AND revoked_at IS NULL',
    [now, workspaceId, userId],
  );
}

/** What an invitation link's holder may see before accepting it: where, as what, for whom. */
export interface InvitationPreview {
  workspaceName: string;
  role: Role;
  email: string | null;
  handle: string | null;
  /** ms since the epoch. */
  expiresAt: number;
}

/**
 * What the invitation behind `token` offers, for the invitation page (the link holder only).
 * @throws ServiceError 400 as {@link checkInvitation}.
 */
export function* previewInvitation(svc: Services, token: unknown): Query<InvitationPreview> {
  const q = svc.store.sql;
  const invitation = yield* checkInvitation(q, token, svc.clock.now());
  const workspaceName = (yield* q.get<{ name: string }>('SELECT name FROM workspaces WHERE id = ?', [invitation.workspaceId]))!.name;
  return { workspaceName, role: invitation.role, email: invitation.email, handle: invitation.handle, expiresAt: invitation.expiresAt };
}

/**
 * The signed-in account joins the workspace of the invitation behind `token` (one transaction).
 * @throws ServiceError as {@link joinWithInvitation}.
 */
export function acceptInvitation(svc: Services, actor: Actor, token: unknown): Query<Invitation> {
  return svc.store.sql.transaction((tx) => joinWithInvitation(tx, token, { id: actor.userId, handle: actor.handle }, svc.clock.now()));
}

/**
 * Accepts an invitation for an existing account `userId` (the caller runs this in a transaction):
 * makes them a member with the invited role (an existing member's role is raised to it, never
 * lowered) and marks the invitation used.
 * @throws ServiceError 400 as {@link checkInvitation}; 403 when the invitation names another handle.
 */
export function* joinWithInvitation(q: Sql, token: unknown, user: { id: string; handle: string }, now: number): Query<Invitation> {
  const invitation = yield* checkInvitation(q, token, now);
  if (invitation.handle !== null && invitation.handle.toLowerCase() !== user.handle.toLowerCase()) {
    throw forbidden(`this invitation is for @${invitation.handle}`);
  }
  const current = yield* q.get<{ role: Role }>('SELECT role FROM workspace_members WHERE workspace_id = ? AND user_id = ?', [
    invitation.workspaceId,
    user.id,
  ]);
  if (current && ROLES.indexOf(current.role) >= ROLES.indexOf(invitation.role)) {
    // Already a member with this role or above: the invitation is used up without a change.
  } else {
    yield* q.run(
      `INSERT INTO workspace_members (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = excluded.role`,
      [invitation.workspaceId, user.id, invitation.role, now],
    );
  }
  yield* q.run('UPDATE invitations SET accepted_at = ?, accepted_by = ? WHERE id = ?', [now, user.id, invitation.id]);
  return invitation;
}

/** Members of a workspace with their roles, by handle (Viewer). @throws ServiceError 403/404 from the access check. */
export function* listMembers(
  svc: Services,
  actor: Actor,
  workspaceId: string,
): Query<{ userId: string; handle: string; displayName: string; role: Role }[]> {
  const q = svc.store.sql;
  yield* requireWorkspace(q, actor, workspaceId, 'Viewer');
  return yield* q.all<{ userId: string; handle: string; displayName: string; role: Role }>(
    `SELECT u.id AS "userId", u.handle, u.display_name AS "displayName", m.role
       FROM workspace_members m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = ? ORDER BY u.handle`,
    [workspaceId],
  );
}

function* ownerCount(q: Sql, workspaceId: string): Query<number> {
  const row = yield* q.get<{ n: number }>("SELECT COUNT(*) AS n FROM workspace_members WHERE workspace_id = ? AND role = 'Owner'", [
    workspaceId,
  ]);
  return row!.n;
}

function* memberRole(q: Sql, workspaceId: string, handle: string): Query<{ userId: string; role: Role }> {
  const row = yield* q.get<{ userId: string; role: Role }>(
    'SELECT m.user_id AS "userId", m.role FROM workspace_members m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = ? AND lower(u.handle) = lower(?)',
    [workspaceId, handle],
  );
  if (!row) throw notFound('member', handle);
  return row;
}

/**
 * Owners: change a member's role (one transaction). Demoting a member below {@link INVITER_ROLE}
 * withdraws the invitations they sent that are still pending.
 * @throws ServiceError 400 for an unknown role, 404 for a non-member, 409 when it would leave the
 *   workspace without an Owner; 403/404 from the access check.
 */
export function changeMemberRole(svc: Services, actor: Actor, workspaceId: string, handle: string, role: unknown): Query<void> {
  return svc.store.sql.transaction(function* (tx) {
    yield* requireWorkspace(tx, actor, workspaceId, 'Owner', 'changing roles');
    if (typeof role !== 'string' || !isRole(role)) throw badRequest('role', 'invalid_value', `role must be one of ${ROLES.join(', ')}`);
    const member = yield* memberRole(tx, workspaceId, handle);
    if (member.role === 'Owner' && role !== 'Owner' && (yield* ownerCount(tx, workspaceId)) === 1) {
      throw conflict('a workspace keeps at least one Owner', { field: 'role', reason: 'last_owner' });
    }
    yield* tx.run('UPDATE workspace_members SET role = ? WHERE workspace_id = ? AND user_id = ?', [role, workspaceId, member.userId]);
    if (!roleAtLeast(role, INVITER_ROLE)) yield* withdrawInvitationsBy(tx, workspaceId, member.userId, svc.clock.now());
  });
}

/**
 * Owners: remove a member (one transaction); their access ends with their next request, since
 * roles are read on every request. The invitations they sent that are still pending are withdrawn.
 * @throws ServiceError 404 for a non-member, 409 for the last Owner; 403/404 from the access check.
 */
export function removeMember(svc: Services, actor: Actor, workspaceId: string, handle: string): Query<void> {
  return svc.store.sql.transaction(function* (tx) {
    yield* requireWorkspace(tx, actor, workspaceId, 'Owner', 'removing members');
    const member = yield* memberRole(tx, workspaceId, handle);
    if (member.role === 'Owner' && (yield* ownerCount(tx, workspaceId)) === 1) {
      throw conflict('a workspace keeps at least one Owner', { field: 'handle', reason: 'last_owner' });
    }
    yield* tx.run('DELETE FROM workspace_members WHERE workspace_id = ? AND user_id = ?', [workspaceId, member.userId]);
    yield* withdrawInvitationsBy(tx, workspaceId, member.userId, svc.clock.now());
  });
}
