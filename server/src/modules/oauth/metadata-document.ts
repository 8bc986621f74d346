import { BlockedTargetError, type GuardedHttp } from '../../platform/guarded-http';
import { checkTargetUrl, type AddressPolicy } from '../../platform/ssrf';
import { ServiceError } from '../../errors';
import { checkRedirectUri, MAX_REDIRECT_URIS } from './clients';

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document; MCP authorization
 * spec 2025-11-25 section "Client ID Metadata Documents"; docs/oauth.md "Clients identified by a
 * URL"): a client whose `client_id` is an https URL publishes its metadata at that URL. This file
 * checks such a URL, fetches the document through the SSRF guard, size and time bounded, and
 * checks what it says.
 */

/** Largest document accepted, in bytes (the draft suggests 5 KB). */
export const METADATA_DOCUMENT_MAX_BYTES = 5 * 1024;

/** Deadline of one fetch (connect, headers and body), in ms. */
export const METADATA_DOCUMENT_TIMEOUT_MS = 5000;

/** Shortest and longest time a fetched document is used before it is fetched again, in seconds; and the default without `max-age`. */
export const METADATA_DOCUMENT_LIFETIME = { minSeconds: 300, maxSeconds: 86_400, defaultSeconds: 3600 } as const;

/** Longest client name kept from a document. */
const MAX_NAME = 100;

/** A document that cannot be used: the reason, told to the person as an `invalid_client` error. */
export class MetadataDocumentError extends Error {
  override name = 'MetadataDocumentError';
}

/** What a valid document says, as this server keeps it. */
export interface MetadataDocument {
  /** `client_name`, or the URL's host when it has none. */
  name: string;
  redirectUris: string[];
  /** How long this copy may be used, in ms (from `Cache-Control: max-age`, bounded by {@link METADATA_DOCUMENT_LIFETIME}). */
  lifetimeMs: number;
}

/** Whether `clientId` is meant as a metadata document URL (an http or https URL) rather than an id this server issued. */
export function isClientIdUrl(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/**
 * Checks a URL client id (draft section 3): https (http only under the SSRF guard's development
 * switch, `TASKSPACE_WEBHOOKS_ALLOW_INSECURE=1`), a path other than `/`, no fragment, no user
 * name or password, no `.` or `..` path segments, and, for an IP literal, an address the guard allows.
 * @throws MetadataDocumentError naming what is wrong.
 */
export function checkClientIdUrl(clientId: string, policy: AddressPolicy): URL {
  const checked = checkTargetUrl(clientId, policy);
  if (!(checked instanceof URL)) {
    const reasons: Record<string, string> = {
      invalid_format: 'client_id is not an absolute URL',
      insecure_scheme: 'client_id must use https',
      credentials_not_allowed: 'client_id must not contain a user name or password',
    };
    throw new MetadataDocumentError(
      reasons[checked.reason] ?? `client_id points to a ${checked.category ?? 'refused'} address, which this server does not fetch from`,
    );
  }
  if (clientId.includes('#')) throw new MetadataDocumentError('client_id must not contain a fragment');
  if (checked.pathname === '/' || checked.pathname === '') throw new MetadataDocumentError('client_id must have a path (not just /)');
  if (/\/\.\.?(\/|$|\?)/.test(clientId.replace(/^https?:\/\/[^/]*/i, '')))
    throw new MetadataDocumentError('client_id must not contain . or .. path segments');
  return checked;
}

/** The lifetime a response's `Cache-Control` asks for, bounded. */
function lifetimeOf(cacheControl: string | string[] | undefined): number {
  const header = Array.isArray(cacheControl) ? cacheControl.join(',') : (cacheControl ?? '');
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(header);
  const seconds = maxAge ? Number(maxAge[1]) : METADATA_DOCUMENT_LIFETIME.defaultSeconds;
  return Math.min(METADATA_DOCUMENT_LIFETIME.maxSeconds, Math.max(METADATA_DOCUMENT_LIFETIME.minSeconds, seconds)) * 1000;
}

/** Strings of a JSON array, or undefined when it is not an array of strings. */
function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : undefined;
}

/**
 * Checks a parsed document (draft section 4): `client_id` equals the URL it came from, exactly;
 * `redirect_uris` lists 1 to 10 URIs each allowed by the registration rules; the client
 * authenticates with `none` (no shared secret: `client_secret` is refused); grant and response
 * types are ones this server has.
 * @throws MetadataDocumentError naming what is wrong.
 */
export function checkMetadataDocument(clientId: string, document: unknown): Omit<MetadataDocument, 'lifetimeMs'> {
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw new MetadataDocumentError('the metadata document is not a JSON object');
  const body = document as Record<string, unknown>;
  if (body.client_id !== clientId)
    throw new MetadataDocumentError(`the metadata document's client_id (${String(body.client_id)}) is not its URL ${clientId}`);
  const redirectUris = strings(body.redirect_uris);
  if (!redirectUris || redirectUris.length === 0 || redirectUris.length > MAX_REDIRECT_URIS)
    throw new MetadataDocumentError(`the metadata document's redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs`);
  redirectUris.forEach((uri, index) => {
    try {
      checkRedirectUri(uri, index);
    } catch (error) {
      if (error instanceof ServiceError) throw new MetadataDocumentError(`the metadata document's ${error.message}`);
      throw error;
    }
  });
  if ('client_secret' in body || 'client_secret_expires_at' in body)
    throw new MetadataDocumentError('a metadata document must not carry a client_secret');
  if (body.token_endpoint_auth_method !== undefined && body.token_endpoint_auth_method !== 'none')
    throw new MetadataDocumentError('the metadata document\'s token_endpoint_auth_method must be "none" (a public client using PKCE)');
  const grants = body.grant_types === undefined ? [] : strings(body.grant_types);
  if (!grants || !grants.every((grant) => grant === 'authorization_code' || grant === 'refresh_token'))
    throw new MetadataDocumentError("the metadata document's grant_types may hold authorization_code and refresh_token only");
  const responses = body.response_types === undefined ? [] : strings(body.response_types);
  if (!responses || !responses.every((kind) => kind === 'code'))
    throw new MetadataDocumentError("the metadata document's response_types may hold code only");
  const rawName = typeof body.client_name === 'string' ? body.client_name.replace(/[\r\n]+/g, ' ').trim() : '';
  return { name: (rawName || new URL(clientId).host).slice(0, MAX_NAME), redirectUris: [...new Set(redirectUris)] };
}

/**
 * Fetches and checks the document at `clientId` through the SSRF guard: a GET with no
 * credentials, redirects not followed, at most {@link METADATA_DOCUMENT_MAX_BYTES} bytes within
 * {@link METADATA_DOCUMENT_TIMEOUT_MS}; the answer must be 200 with a JSON object that passes
 * {@link checkMetadataDocument}.
 * @throws MetadataDocumentError naming what is wrong (never the network error's internals beyond its kind).
 */
export async function fetchMetadataDocument(http: GuardedHttp, clientId: string, policy: AddressPolicy): Promise<MetadataDocument> {
  const url = checkClientIdUrl(clientId, policy);
  let response;
  try {
    response = await http.request(url, {
      method: 'GET',
      headers: { accept: 'application/json' },
      timeoutMs: METADATA_DOCUMENT_TIMEOUT_MS,
      maxResponseBytes: METADATA_DOCUMENT_MAX_BYTES + 1,
    });
  } catch (error) {
    if (error instanceof BlockedTargetError)
      throw new MetadataDocumentError(`the metadata document's address is not allowed: ${error.message}`);
    if (error instanceof Error && (error.name === 'TimeoutError' || /timeout/i.test(error.name)))
      throw new MetadataDocumentError(`the metadata document did not arrive within ${METADATA_DOCUMENT_TIMEOUT_MS / 1000} s`);
    throw new MetadataDocumentError('the metadata document could not be fetched');
  }
  if (response.statusCode !== 200) throw new MetadataDocumentError(`fetching the metadata document answered HTTP ${response.statusCode}`);
  if (response.body.length > METADATA_DOCUMENT_MAX_BYTES)
    throw new MetadataDocumentError(`the metadata document is larger than ${METADATA_DOCUMENT_MAX_BYTES} bytes`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new MetadataDocumentError('the metadata document is not JSON');
  }
  return { ...checkMetadataDocument(clientId, parsed), lifetimeMs: lifetimeOf(response.headers['cache-control']) };
}
