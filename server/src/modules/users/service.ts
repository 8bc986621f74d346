import type { Query, Sql } from '../../platform/db/query';
import { badRequest, conflict, notFound } from '../../errors';
import { newId } from '../../platform/ids';
import { notifyAuthChanged } from '../../platform/db/postgres/notifications';

/** Account plans, lowest first. Pro and above may register webhooks (spec section 8). */
export const PLANS = ['free', 'starter', 'pro', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** Rate tiers; limits per hour come from configuration (README "Configuration"). */
export const RATE_TIERS = ['standard', 'premium', 'enterprise'] as const;
export type RateTier = (typeof RATE_TIERS)[number];

/** Handles: 1–39 characters of letters, digits, '-', '_' and '.', starting with a letter or digit. */
export const HANDLE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,38}$/;

/** A user as stored. */
export interface User {
  id: string;
  handle: string;
  displayName: string;
  plan: Plan;
  rateTier: RateTier;
  verified: boolean;
  createdAt: number;
}

interface UserRow {
  id: string;
  handle: string;
  display_name: string;
  plan: Plan;
  rate_tier: RateTier;
  verified: number;
  created_at: number;
}

function toUser(row: UserRow): User {
  return {
    id: row.id,
    handle: row.handle,
    displayName: row.display_name,
    plan: row.plan,
    rateTier: row.rate_tier,
    verified: row.verified === 1,
    createdAt: row.created_at,
  };
}

/** Input of {@link createUser}. Plan and tier default to free/standard, verified to false. */
export interface NewUser {
  handle: string;
  displayName?: string;
  plan?: Plan;
  rateTier?: RateTier;
  verified?: boolean;
}

/**
 * Creates a user.
 * @throws ServiceError 400 for a malformed handle, plan or tier; 409 when the handle is taken.
 */
export function* createUser(q: Sql, input: NewUser, now: number): Query<User> {
  if (!HANDLE_PATTERN.test(input.handle)) throw badRequest('handle', 'invalid_format', `invalid handle '${input.handle}'`);
  const plan = input.plan ?? 'free';
  const rateTier = input.rateTier ?? 'standard';
  if (!PLANS.includes(plan)) throw badRequest('plan', 'invalid_value', `plan must be one of ${PLANS.join(', ')}`);
  if (!RATE_TIERS.includes(rateTier)) throw badRequest('rateTier', 'invalid_value', `rate tier must be one of ${RATE_TIERS.join(', ')}`);
  if (yield* findUserByHandle(q, input.handle)) throw conflict(`handle '${input.handle}' is taken`, { field: 'handle', reason: 'taken' });
  const user: User = {
    id: newId(),
    handle: input.handle,
    displayName: input.displayName?.trim() || input.handle,
    plan,
    rateTier,
    verified: input.verified ?? false,
    createdAt: now,
  };
  yield* q.run('INSERT INTO users (id, handle, display_name, plan, rate_tier, verified, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
    user.id,
    user.handle,
    user.displayName,
    user.plan,
    user.rateTier,
    user.verified ? 1 : 0,
    user.createdAt,
  ]);
  return user;
}

/** The user with `handle` (case-insensitive), or undefined. */
export function* findUserByHandle(q: Sql, handle: string): Query<User | undefined> {
  const row = yield* q.get<UserRow>(
    'SELECT id, handle, display_name, plan, rate_tier, verified, created_at FROM users WHERE lower(handle) = lower(?)',
    [handle],
  );
  return row ? toUser(row) : undefined;
}

/**
 * The user with `handle`.
 * @throws ServiceError 404 when there is none.
 */
export function* getUserByHandle(q: Sql, handle: string): Query<User> {
  const user = yield* findUserByHandle(q, handle);
  if (!user) throw notFound('user', handle);
  return user;
}

/** Number of users; 0 before the first start's bootstrap. */
export function* countUsers(q: Sql): Query<number> {
  const row = yield* q.get<{ n: number }>('SELECT count(*) AS n FROM users');
  return row!.n;
}

/**
 * Changes a user's plan, rate tier or verified flag.
 * @throws ServiceError 400 for an unknown plan or tier, 404 for an unknown handle.
 */
export function* updateUser(q: Sql, handle: string, changes: { plan?: string; rateTier?: string; verified?: boolean }): Query<User> {
  const user = yield* getUserByHandle(q, handle);
  if (changes.plan !== undefined && !PLANS.includes(changes.plan as Plan)) {
    throw badRequest('plan', 'invalid_value', `plan must be one of ${PLANS.join(', ')}`);
  }
  if (changes.rateTier !== undefined && !RATE_TIERS.includes(changes.rateTier as RateTier)) {
    throw badRequest('rateTier', 'invalid_value', `rate tier must be one of ${RATE_TIERS.join(', ')}`);
  }
  const next = {
    plan: (changes.plan as Plan) ?? user.plan,
    rateTier: (changes.rateTier as RateTier) ?? user.rateTier,
    verified: changes.verified ?? user.verified,
  };
  yield* q.run('UPDATE users SET plan = ?, rate_tier = ?, verified = ? WHERE id = ?', [
    next.plan,
    next.rateTier,
    next.verified ? 1 : 0,
    user.id,
  ]);
  yield* notifyAuthChanged(q);
  return { ...user, ...next };
}

/**
 * Sets user `userId`'s display name (the caller checked and trimmed it) and tells every process
 * that an account changed (`notifyAuthChanged`: the name is part of the cached `Actor`). Call
 * inside a transaction, with its handle.
 */
export function* setDisplayName(q: Sql, userId: string, displayName: string): Query<void> {
  yield* q.run('UPDATE users SET display_name = ? WHERE id = ?', [displayName, userId]);
  yield* notifyAuthChanged(q);
}
