import type { Db } from './platform/db/connection';
import { transaction } from './platform/db/connection';
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
 * makes a one-time setup link. Does nothing on later starts.
 * @throws ServiceError 400 when `password` is outside the password policy.
 * @returns what was created, or undefined when the database already had users.
 */
export function bootstrap(db: Db, now: number, fixedToken?: string, password?: string): BootstrapResult | undefined {
  if (countUsers(db) > 0) return undefined;
  const passwordHash = password === undefined ? undefined : hashPasswordSync(checkPasswordPolicy(password, 'TASKSPACE_BOOTSTRAP_PASSWORD'));
  return transaction(db, () => {
    if (countUsers(db) > 0) return undefined;
    const user = createUser(
      db,
      { handle: BOOTSTRAP_HANDLE, displayName: 'Owner', plan: 'enterprise', rateTier: 'enterprise', verified: true },
      now,
    );
    const workspace = createWorkspace(db, 'My workspace', user.id, now);
    const { token } = createAccessToken(db, user.id, 'bootstrap', now, fixedToken);
    let setupToken: string | undefined;
    if (passwordHash) setPasswordHash(db, user.id, passwordHash);
    else setupToken = createSetupLink(db, user.id, now);
    return { userId: user.id, workspaceId: workspace.id, token, setupToken };
  });
}
