/**
 * The one redaction rule of Taskspace (docs "Automations", "Credentials in definitions"): which
 * names carry credentials, and how their values are hidden. Applied to HTTP Request steps in the
 * run journal, to automation definitions shown to anyone but the workspace Owner, and to the
 * headers recorded with inbound webhook calls.
 */
import type { Action } from './definition/types';
import { walkActions } from './definition/walk';

/** What a hidden value reads as. */
export const REDACTED = '[redacted]';

/** Header, query and field names that always carry credentials (compared lowercase). */
const CREDENTIAL_NAMES = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
  'apikey',
  'x-auth-token',
  'x-access-token',
  'x-csrf-token',
  'x-amz-security-token',
]);

/** Name parts that mark a credential: `access_token`, `client_secret`, `X-Webhook-Secret`, `password`… */
const CREDENTIAL_PART =
  /(^|[-_.\s])(token|secret|password|passwd|pwd|apikey|api[-_]key|credentials?|auth|session|signature|private[-_]?key)([-_.\s]|$)/i;

/** True when a header, query parameter or body field of this name carries a credential. */
export function isCredentialName(name: string): boolean {
  const lower = name.toLowerCase();
  return CREDENTIAL_NAMES.has(lower) || CREDENTIAL_PART.test(lower);
}

/**
 * A copy of `headers` with the values of credential names replaced by {@link REDACTED}, and of
 * the names in `also` (any case; e.g. the header an inbound trigger reads its signature from,
 * whatever it is called).
 */
export function redactHeaders(headers: Record<string, string>, also: readonly string[] = []): Record<string, string> {
  const extra = new Set(also.map((name) => name.toLowerCase()));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = isCredentialName(k) || extra.has(k.toLowerCase()) ? REDACTED : v;
  return out;
}

/**
 * Request headers that go on when a redirect or a next page leaves the first URL's origin: what
 * describes the request and its body, never who sends it (compared lowercase). Every other header
 * the author set is dropped there, whatever its name (`X-RapidAPI-Key`, `Ocp-Apim-Subscription-Key`…),
 * as a credential pattern cannot know every service's header.
 */
export const CROSS_ORIGIN_SAFE_HEADERS: ReadonlySet<string> = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'content-language',
  'content-type',
  'if-match',
  'if-modified-since',
  'if-none-match',
  'if-unmodified-since',
  'pragma',
  'user-agent',
]);

/**
 * The headers of a request that is sent to another origin than the one its author addressed (a
 * cross-origin redirect or next page): only those of {@link CROSS_ORIGIN_SAFE_HEADERS}.
 */
export function crossOriginHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (CROSS_ORIGIN_SAFE_HEADERS.has(k.toLowerCase())) out[k] = v;
  return out;
}

/** `url` with the values of credential-named query parameters replaced by {@link REDACTED}. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  let changed = false;
  for (const key of [...parsed.searchParams.keys()]) {
    if (isCredentialName(key)) {
      parsed.searchParams.set(key, REDACTED);
      changed = true;
    }
  }
  return changed ? parsed.toString() : url;
}

/**
 * True when a definition value holds no literal credential: nothing but template tags
 * (`{{ secrets.API_KEY }}`, `{{ trigger.token }}`) and an authorization scheme word.
 */
function onlyReferences(value: string): boolean {
  return (
    value
      .replace(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g, '')
      .replace(/\b(bearer|basic|token|digest)\b/gi, '')
      .trim() === ''
  );
}

/** A definition as a non-owner may see it, and the paths of the values hidden from them. */
export interface RedactedActions {
  actions: Action[];
  /** Paths such as `actions[0].headers.Authorization`; empty when nothing was hidden. */
  redacted: string[];
}

function redactJson(value: unknown, path: string, found: string[]): unknown {
  if (Array.isArray(value)) return value.map((v, i) => redactJson(v, `${path}[${i}]`, found));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const at = `${path}.${k}`;
      if (isCredentialName(k) && typeof v === 'string' && !onlyReferences(v)) {
        out[k] = REDACTED;
        found.push(at);
      } else out[k] = redactJson(v, at, found);
    }
    return out;
  }
  return value;
}

/**
 * Hides the literal credentials of HTTP Request steps — header values, query values, form fields
 * and JSON body fields with credential names — anywhere in the action tree, keeping template
 * references (`{{ secrets.NAME }}`) visible. The input is not changed.
 */
export function redactActions(actions: Action[]): RedactedActions {
  const copy = JSON.parse(JSON.stringify(actions)) as Action[];
  const redacted: string[] = [];
  walkActions(copy, (action, path) => {
    if (action.type !== 'http.request') return;
    const at = path.reduce<string>((acc, s) => (typeof s === 'number' ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
    const hide = (record: Record<string, string> | undefined, where: string) => {
      for (const [k, v] of Object.entries(record ?? {})) {
        if (isCredentialName(k) && !onlyReferences(v)) {
          record![k] = REDACTED;
          redacted.push(`${at}.${where}.${k}`);
        }
      }
    };
    hide(action.headers, 'headers');
    hide(action.query, 'query');
    const literalUrl = redactUrl(action.url);
    if (literalUrl !== action.url && !onlyReferencesInQuery(action.url)) {
      action.url = literalUrl;
      redacted.push(`${at}.url`);
    }
    if (action.body?.type === 'form') hide(action.body.fields, 'body.fields');
    if (action.body?.type === 'json') action.body.value = redactJson(action.body.value, `${at}.body.value`, redacted);
  });
  return { actions: copy, redacted };
}

/** True when every credential-named query value in `url` is a template reference. */
function onlyReferencesInQuery(url: string): boolean {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  return query
    .split('&')
    .map((pair) => pair.split('='))
    .filter(([k]) => k !== undefined && isCredentialName(decodeURIComponentSafe(k)))
    .every(([, v]) => onlyReferences(decodeURIComponentSafe(v ?? '')));
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
