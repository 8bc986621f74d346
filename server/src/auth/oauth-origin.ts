import { INBOUND_TRIGGER_TYPES } from '@taskspace/engine';
import { requireFirstPartyCredential } from './access';
import type { Actor } from './tokens';

/**
 * Automations and OAuth apps (docs/oauth.md "Threat model"). An automation acts as its owner
 * with the owner's roles and no scopes, and an inbound URL (webhook or form trigger) is a
 * credential of its own that writes as that owner. So:
 * - an automation may get, keep or change an inbound URL only through a first-party credential
 *   (a session or a personal access token): creating or saving one with a webhook or form
 *   trigger, and enabling one, is refused to OAuth access tokens;
 * - an automation created or last changed through an OAuth grant carries that grant in its
 *   host data (`meta.oauthGrant`), and is disabled when the grant is revoked or its client
 *   deleted, so nothing an app set up keeps acting after the person withdrew the app's access.
 * Saving the automation with a first-party credential makes it the person's own (the mark goes).
 * These checks sit in `auth/` (they are about the credential); disabling the automations of a
 * revoked grant is in `modules/automations/oauth-disable.ts`.
 */

/** The key of the OAuth origin in an automation record's `meta`. */
export const OAUTH_ORIGIN_META = 'oauthGrant';

/** The grant and client an automation was created or last changed through. */
export interface OAuthOrigin {
  grantId: string;
  clientId: string;
}

/**
 * Refuses an OAuth access token a change that would give an automation an inbound URL or change
 * what an existing one does: `trigger` is the webhook or form trigger being saved or enabled.
 * @throws ServiceError 403 FORBIDDEN (`oauth_token_not_allowed`).
 */
export function requireFirstPartyForInbound(actor: Actor, trigger: { type: string }, action: string): void {
  if ((INBOUND_TRIGGER_TYPES as readonly string[]).includes(trigger.type))
    requireFirstPartyCredential(actor, `${action} with a ${trigger.type} trigger (an inbound URL)`);
}

/**
 * Records in `meta` which OAuth grant (if any) made this change: set for an OAuth access token,
 * removed for a first-party credential. Returns `meta` (changed in place).
 */
export function markOAuthOrigin(meta: Record<string, unknown>, actor: Actor): Record<string, unknown> {
  if (actor.oauthClientId !== undefined && actor.oauthGrantId !== undefined) {
    const origin: OAuthOrigin = { grantId: actor.oauthGrantId, clientId: actor.oauthClientId };
    meta[OAUTH_ORIGIN_META] = origin;
  } else {
    delete meta[OAUTH_ORIGIN_META];
  }
  return meta;
}
