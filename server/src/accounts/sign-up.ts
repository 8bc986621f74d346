import { createUser } from '../modules/users/service';
import type { Services } from '../services';
import { checkInvitation, joinWithInvitation } from './invitations';
import { setEmail, setPasswordHash } from './credentials';
import { checkPasswordPolicy, hashPassword } from './passwords';

/** What a new account made from an invitation gets: its ids, the workspace joined and the role. */
export interface SignedUp {
  userId: string;
  handle: string;
  workspaceId: string;
  role: string;
}

/**
 * Creates an account from an invitation link (docs "Invitations and members"): the handle and
 * password chosen by the person, the invitation's email, and membership with the invited role,
 * in one transaction. The token is checked before the (slow) password hashing and again inside
 * the transaction, so a link used meanwhile is refused.
 * @throws ServiceError 400 for an unusable link (`invalid_link`, `link_used`, `link_expired`), a
 *   weak password or a bad handle; 409 for a handle already taken.
 */
export async function signUpWithInvitation(
  svc: Services,
  input: { token: string; handle: string; password: string; displayName?: string },
): Promise<SignedUp> {
  const { store, clock } = svc;
  await store.run(checkInvitation(store.sql, input.token, clock.now()));
  const hash = await hashPassword(checkPasswordPolicy(input.password));
  return store.run(
    store.sql.transaction(function* (tx) {
      const now = clock.now();
      const invitation = yield* checkInvitation(tx, input.token, now);
      const user = yield* createUser(tx, { handle: input.handle, displayName: input.displayName }, now);
      if (invitation.email) yield* setEmail(tx, user.id, invitation.email);
      yield* setPasswordHash(tx, user.id, hash);
      yield* joinWithInvitation(tx, input.token, user, now);
      return { userId: user.id, handle: user.handle, workspaceId: invitation.workspaceId, role: invitation.role };
    }),
  );
}
