import type { Actor } from '../../auth/tokens';
import { isoTime } from '../../platform/clock';
import { conflict } from '../../errors';
import { newSecret } from '../../platform/ids';
import type { Services } from '../../services';
import { INBOUND_ID_BYTES, inboundLinkOf, newInboundToken } from '../engine-host/inbound-link';
import { requireFirstPartyForInbound } from '../../auth/oauth-origin';
import type { AutomationRuntime } from '../engine-host/runtime';
import { requireAutomation } from '../engine-host/automation-access';

/**
 * Rotation of an automation's inbound URL or bearer token with an overlap window (docs
 * "Automations", "Rotating the URL or token"): the new one works at once, the former one keeps
 * working until the window ends (then 404 for a URL, 401 for a token), so the senders can be
 * switched without a moment in which calls fail or the URL is unprotected. Only the former URL id
 * and the SHA-256 hex of the former token are kept (`inbound_webhooks.previous_*`, migration 028),
 * one of each: a second rotation inside the window ends the first one's overlap.
 */

/** Default overlap window of a rotation, in seconds (one day). */
export const DEFAULT_OVERLAP_SECONDS = 86_400;
/** Longest overlap window, in seconds (seven days). */
export const MAX_OVERLAP_SECONDS = 604_800;

/** What a rotation replaces: the bearer token or the URL id. */
export type RotateWhat = 'token' | 'url';

/** The answer of a rotation: the inbound URL as it is now, the new secret once, and when the former one stops working. */
export interface RotationResult {
  rotated: RotateWhat;
  /** The current URL id. */
  id: string;
  url: string;
  /** For a form trigger: the hosted form page. */
  formUrl?: string;
  requiresToken: boolean;
  /** The new bearer token (`rotate: token` only); shown only in this answer. */
  token?: string;
  /** When the former URL or token stops being accepted (ISO 8601; now for an overlap of 0). */
  previousValidUntil: string;
}

/**
 * Rotates an automation's inbound URL or token (Owner, first-party credential): `token` makes a
 * new bearer token, `url` a new URL id (the hosted form page, if any, moves with it). The former
 * one is accepted for `overlapSeconds` more (0: refused at once).
 * @throws ServiceError 403 (not the Owner, or an OAuth access token), 404 (unknown automation),
 *   409 CONFLICT when the automation has no inbound URL (field `rotate`, reason
 *   `no_inbound_url`), when rotating the token of a URL that requires none (reason `no_token`),
 *   or when the URL changed while rotating (reason `changed`; try again).
 */
export async function rotateInbound(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  automationId: string,
  input: { rotate: RotateWhat; overlapSeconds?: number },
): Promise<RotationResult> {
  const { automation } = await requireAutomation(svc, rt, actor, automationId, 'Owner', 'rotating an inbound URL');
  requireFirstPartyForInbound(actor, automation.definition.trigger, 'rotating an inbound URL');
  const link = inboundLinkOf(automation);
  if (!link)
    throw conflict('this automation has no inbound URL (only webhook and form triggers have one)', {
      field: 'rotate',
      reason: 'no_inbound_url',
    });
  if (input.rotate === 'token' && link.tokenHash === null) {
    throw conflict("this inbound URL requires no token; set the trigger's requireToken to get one", {
      field: 'rotate',
      reason: 'no_token',
    });
  }
  const now = svc.clock.now();
  const overlapMs = (input.overlapSeconds ?? DEFAULT_OVERLAP_SECONDS) * 1000;
  const until = now + overlapMs;
  let id = link.id;
  let token: string | undefined;
  let changes: number;
  if (input.rotate === 'token') {
    const fresh = newInboundToken();
    token = fresh.token;
    ({ changes } = await svc.store.run(
      svc.store.sql.run(
        `UPDATE inbound_webhooks SET token_hash = ?, previous_token_hash = ?, previous_token_expires_at = ?
          WHERE automation_id = ? AND id = ? AND token_hash = ?`,
        [fresh.tokenHash, overlapMs > 0 ? link.tokenHash : null, overlapMs > 0 ? until : null, automation.id, link.id, link.tokenHash],
      ),
    ));
  } else {
    id = newSecret(INBOUND_ID_BYTES);
    ({ changes } = await svc.store.run(
      svc.store.sql.run(
        `UPDATE inbound_webhooks SET id = ?, created_at = ?, previous_id = ?, previous_id_expires_at = ?
          WHERE automation_id = ? AND id = ?`,
        [id, now, overlapMs > 0 ? link.id : null, overlapMs > 0 ? until : null, automation.id, link.id],
      ),
    ));
  }
  if (changes !== 1) throw conflict('the inbound URL changed while rotating; try again', { field: 'rotate', reason: 'changed' });
  const result: RotationResult = {
    rotated: input.rotate,
    id,
    url: svc.links.url('/webhooks/' + id),
    requiresToken: link.tokenHash !== null,
    previousValidUntil: isoTime(until),
  };
  if (automation.definition.trigger.type === 'form') result.formUrl = svc.links.url('/forms/' + id);
  if (token !== undefined) result.token = token;
  return result;
}
