import type { Db } from './db/connection';
import { transaction } from './db/connection';
import { createAccessToken } from './auth/tokens';
import { countUsers, createUser } from './domain/users';
import { createWorkspace } from './domain/workspaces';

/** Handle of the owner made on first start. */
export const BOOTSTRAP_HANDLE = 'owner';

/** What the first start created. */
export interface BootstrapResult {
  userId: string;
  workspaceId: string;
  /** The owner's personal access token: shown once, never stored in clear. */
  token: string;
}

/**
 * On a database without users, creates the owner (enterprise plan and tier, verified), a
 * workspace with its home folder, and a personal access token (`fixedToken` when given,
 * e.g. TASKSPACE_BOOTSTRAP_TOKEN). Does nothing on later starts.
 * @returns what was created, or undefined when the database already had users.
 */
export function bootstrap(db: Db, now: number, fixedToken?: string): BootstrapResult | undefined {
  return transaction(db, () => {
    if (countUsers(db) > 0) return undefined;
    const user = createUser(
      db,
      { handle: BOOTSTRAP_HANDLE, displayName: 'Owner', plan: 'enterprise', rateTier: 'enterprise', verified: true },
      now,
    );
    const workspace = createWorkspace(db, 'My workspace', user.id, now);
    const { token } = createAccessToken(db, user.id, 'bootstrap', now, fixedToken);
    return { userId: user.id, workspaceId: workspace.id, token };
  });
}
