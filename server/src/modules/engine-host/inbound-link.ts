import type { AutomationRecord, FormTrigger, WebhookTrigger } from '@taskspace/engine';
import { INBOUND_TRIGGER_TYPES } from '@taskspace/engine';
import { hashToken } from '../../auth/tokens';
import { newSecret } from '../../platform/ids';

/**
 * The inbound URL of a webhook- or form-triggered automation (spec section 4.7; docs "Webhooks",
 * "Inbound webhooks"): part of its automation, stored once, in `inbound_webhooks` (one row per
 * automation, deleted with it). The automation service puts the link in the automation record's
 * host data (`meta.inbound`); the run store writes and reads that row in the same transaction as
 * the automation itself, so an automation and its URL are created, changed and deleted together.
 */

/** Bytes of randomness in an inbound URL id (192 bits; 32 base64url characters). */
export const INBOUND_ID_BYTES = 24;

/** Prefix of generated inbound tokens. */
export const INBOUND_TOKEN_PREFIX = 'whk_';

/** An automation's inbound URL as its record carries it (`meta.inbound`). */
export interface InboundLink {
  /** The URL's unguessable id: `/webhooks/<id>`, `/forms/<id>`. */
  id: string;
  /** SHA-256 hex of the bearer token callers must send, or null when none is required. */
  tokenHash: string | null;
  /** When the URL was made, ms epoch. */
  createdAt: number;
}

/** Whether a trigger gets an inbound URL (webhook and form triggers). */
export function hasInboundUrl(trigger: { type: string }): boolean {
  return (INBOUND_TRIGGER_TYPES as readonly string[]).includes(trigger.type);
}

/** The `requireToken` of a webhook or form trigger. */
export function wantsToken(trigger: { type: string }): boolean {
  return (trigger as WebhookTrigger | FormTrigger).requireToken === true;
}

/** The inbound URL of an automation record, if it has one. */
export function inboundLinkOf(automation: AutomationRecord): InboundLink | undefined {
  const link = automation.meta.inbound as InboundLink | undefined;
  return link && typeof link.id === 'string' ? link : undefined;
}

/** A new generated bearer token (`whk_…`, 256 random bits): the token, to show once, and its hash, to store. */
export function newInboundToken(): { token: string; tokenHash: string } {
  const token = INBOUND_TOKEN_PREFIX + newSecret(32);
  return { token, tokenHash: hashToken(token) };
}

/**
 * A new inbound URL (192 random bits), with a generated token when `requireToken`.
 * @returns the link to store and the token, shown only once.
 */
export function newInboundLink(requireToken: boolean, now: number): { link: InboundLink; token?: string } {
  const id = newSecret(INBOUND_ID_BYTES);
  if (!requireToken) return { link: { id, tokenHash: null, createdAt: now } };
  const { token, tokenHash } = newInboundToken();
  return { link: { id, tokenHash, createdAt: now }, token };
}
