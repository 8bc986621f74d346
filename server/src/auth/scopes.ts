/**
 * The scopes of OAuth access tokens and personal access tokens (spec section 5.5, docs/oauth.md
 * "Scopes"), and which one a request needs. Scopes narrow a credential; the person's roles in
 * each workspace still apply on top.
 */

/** Every scope a client may request, with the sentence the consent page shows for it. */
export const OAUTH_SCOPES = {
  read: 'Read your workspaces, projects, tasks, agents, media and automations',
  write: 'Create, change and delete them on your behalf',
  webhooks: "Register and manage signed webhooks (API v2) that send your workspaces' events",
} as const;

/** A scope name. */
export type OAuthScope = keyof typeof OAUTH_SCOPES;

/** The scope granted when a client requests none: read-only access. */
export const DEFAULT_SCOPE: readonly OAuthScope[] = ['read'];

/** Whether `name` is a known scope. */
export function isScope(name: string): name is OAuthScope {
  return Object.prototype.hasOwnProperty.call(OAUTH_SCOPES, name);
}

/**
 * The scopes of a space-separated list in a stable order (read, write, webhooks), duplicates
 * dropped; undefined when one is unknown.
 */
export function normalizeScopes(names: readonly string[]): OAuthScope[] | undefined {
  if (!names.every(isScope)) return undefined;
  return (Object.keys(OAUTH_SCOPES) as OAuthScope[]).filter((scope) => names.includes(scope));
}

/** A stored scope list (space-separated) as an array. */
export function parseStoredScope(value: string): string[] {
  return value.split(' ').filter(Boolean);
}

/**
 * The scope a request needs: `webhooks` anywhere under `/api/v2` (signed webhook registration),
 * else `read` for GET/HEAD/OPTIONS and `write` for every other method. A credential holding
 * `write` may also read.
 */
export function requiredScope(method: string, url: string): OAuthScope {
  if (/^\/api\/v2(?:[/?]|$)/.test(url)) return 'webhooks';
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? 'read' : 'write';
}

/** Whether a credential holding `granted` may make a request needing `needed`. */
export function scopeAllows(granted: readonly string[], needed: OAuthScope): boolean {
  return granted.includes(needed) || (needed === 'read' && granted.includes('write'));
}
