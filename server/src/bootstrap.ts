import type { Query, Sql } from './platform/db/query';
import { createAccessToken } from './auth/tokens';
import { countUsers, createUser } from './modules/users/service';
import { createWorkspace } from './modules/workspaces/service';
import { checkPasswordPolicy, hashPasswordSync } from './accounts/passwords';
import { setPasswordHash } from './accounts/credentials';
import { createSetupLink } from './accounts/setup-links';

/** Handle of the owner made on first start. */
export const BOOTSTRAP_HANDLE = 'owner';

/** What the first start created. */
export interface BootstrapResult {
  userId: string;
  workspaceId: string;
  /** The owner's personal access token: shown once, never stored in clear. */
  token: string;
  /**
   * Token of the one-time setup link (`/setup?token=…`, 24 hours) where the owner chooses a
   * password; undefined when TASKSPACE_BOOTSTRAP_PASSWORD set it already.
   */
  setupToken: string | undefined;
}

/**
 * On a database without users, creates the owner (enterprise plan and tier, verified), a
 * workspace with its home folder, and a personal access token (`fixedToken` when given,
 * e.g. TASKSPACE_BOOTSTRAP_TOKEN), and either sets `password` (TASKSPACE_BOOTSTRAP_PASSWORD) or
 * makes a one-time setup link. Does nothing on later starts. The password is hashed before the
 * transaction (and only when the database has no users yet); a second server starting at the same
 * time finds the users inside the transaction and creates nothing.
 * @param q the store's root handle.
 * @throws ServiceError 400 when `password` is outside the password policy.
 * @returns what was created, or undefined when the database already had users.
 */
export function* bootstrap(q: Sql, now: number, fixedToken?: string, password?: string): Query<BootstrapResult | undefined> {
  if ((yield* countUsers(q)) > 0) return undefined;
  const passwordHash = password === undefined ? undefined : hashPasswordSync(checkPasswordPolicy(password, 'TASKSPACE_BOOTSTRAP_PASSWORD'));
  return yield* q.transaction(function* (tx): Query<BootstrapResult | undefined> {
    if ((yield* countUsers(tx)) > 0) return undefined;
    const user = yield* createUser(
      tx,
      { handle: BOOTSTRAP_HANDLE, displayName: 'Owner', plan: 'enterprise', rateTier: 'enterprise', verified: true },
      now,
    );
    const workspace = yield* createWorkspace(tx, 'My workspace', user.id, now);
    const { token } = yield* createAccessToken(tx, user.id, 'bootstrap', now, fixedToken);
    let setupToken: string | undefined;
    if (passwordHash) yield* setPasswordHash(tx, user.id, passwordHash);
    else setupToken = yield* createSetupLink(tx, user.id, now);
    return { userId: user.id, workspaceId: workspace.id, token, setupToken };
  });
}
