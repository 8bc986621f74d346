/**
 * The catalogue of Activepieces pieces as plain JSON (docs/integrations.md "How a piece becomes
 * kinds"): what a piece declares — names, auth, actions, triggers and their properties — read
 * once from a loaded piece ({@link describePiece}) and kept in a small manifest, so that a process
 * lists and validates piece kinds without `require`-ing 0.4–1 MB of piece code per piece. The
 * piece itself is loaded only in a piece worker (`worker.ts`), when one of its kinds runs or its
 * options are asked for.
 */

/** The prefix of the npm names of Activepieces pieces. */
export const PIECE_PREFIX = '@activepieces/piece-';

/** Version of the manifest format. */
export const MANIFEST_FORMAT = 1;

/** One property of an action, trigger or custom auth, as the piece declares it. */
export interface PiecePropInfo {
  /** The framework's property type: SHORT_TEXT, NUMBER, STATIC_DROPDOWN, DROPDOWN, ARRAY, CUSTOM… */
  type: string;
  displayName: string;
  description?: string;
  required: boolean;
  defaultValue?: unknown;
  /** Static dropdowns: the choices. */
  options?: { label: string; value: unknown }[];
  /** Dynamic dropdowns and dynamic properties: the properties whose values their options depend on. */
  refreshers?: string[];
  /** ARRAY of objects: the properties of each item. */
  properties?: Record<string, PiecePropInfo>;
  /** MARKDOWN: the text shown as help. */
  markdown?: string;
}

/** One action or trigger of a piece. */
export interface PieceActionInfo {
  /** The action's name in the piece (`create_post`). */
  name: string;
  displayName: string;
  description: string;
  props: Record<string, PiecePropInfo>;
  /** False when the action runs without a connection. */
  requireAuth: boolean;
  /**
   * Old `@activepieces/framework` actions: the name of their `Property.OAuth2` property (`authentication`),
   * which is no field: the step's connection fills it (`{access_token, …}`) when the action runs.
   */
  authProp?: string;
}

/** One trigger of a piece: an action's fields and its strategy. */
export interface PieceTriggerInfo extends PieceActionInfo {
  /** POLLING, WEBHOOK or APP_WEBHOOK. */
  strategy: string;
  /** The piece's `sampleData`: one item as its runs get it (the builder's sample), when it is a JSON object under 16 KiB. */
  sampleData?: Record<string, unknown>;
  /**
   * WEBHOOK triggers with a `handshakeConfiguration`: a call to the hook URL that has `paramName`
   * (in its headers, query or JSON/form body, by `strategy`) is the service's handshake, answered
   * by the trigger's `onHandshake` instead of starting runs.
   */
  handshake?: { strategy: 'HEADER_PRESENT' | 'QUERY_PRESENT' | 'BODY_PARAM_PRESENT'; paramName: string };
}

/** A trigger's handshake declaration, when it has one Taskspace answers (see {@link PieceTriggerInfo.handshake}). */
function handshakeOf(trigger: Loose): PieceTriggerInfo['handshake'] {
  const h = trigger.handshakeConfiguration as Loose | undefined;
  const strategy = h?.strategy;
  if (
    (strategy !== 'HEADER_PRESENT' && strategy !== 'QUERY_PRESENT' && strategy !== 'BODY_PARAM_PRESENT') ||
    typeof h?.paramName !== 'string'
  )
    return undefined;
  return { strategy, paramName: h.paramName };
}

/** The largest `sampleData` kept in a manifest, in characters of JSON. */
const MAX_SAMPLE_CHARS = 16_384;

/** A trigger's `sampleData` when it is a plain JSON object of at most {@link MAX_SAMPLE_CHARS}. */
function sampleOf(value: unknown): Record<string, unknown> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  try {
    const text = JSON.stringify(value);
    return text.length <= MAX_SAMPLE_CHARS ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** One way to authenticate with a piece. */
export interface PieceAuthInfo {
  /** SECRET_TEXT, BASIC_AUTH, CUSTOM_AUTH or OAUTH2. */
  type: string;
  displayName: string;
  description?: string;
  required: boolean;
  /** CUSTOM_AUTH (and OAUTH2's extra fields): the fields of the connection form. */
  props?: Record<string, PiecePropInfo>;
  /** BASIC_AUTH: the labels of the two fields. */
  username?: { displayName: string; description?: string };
  password?: { displayName: string; description?: string };
  /** OAUTH2: the provider's endpoints, scopes and whether it wants PKCE. */
  authUrl?: string;
  tokenUrl?: string;
  scope?: string[];
  pkce?: boolean;
  /** OAUTH2: parameters added to the authorization URL (Notion's `owner=user`, Google's `access_type=offline`). */
  extra?: Record<string, string>;
  /**
   * OAUTH2: how the token requests carry the app's credentials: `HEADER` as HTTP Basic
   * (RFC 6749 section 2.3.1, `client_secret_basic`), `BODY` as form fields (`client_secret_post`, the default).
   */
  authorizationMethod?: 'HEADER' | 'BODY';
  /** Whether the piece can check a connection (`auth.validate`). */
  validates: boolean;
}

/** One piece as the manifest holds it. */
export interface PieceInfo {
  /** The short name: the npm name without {@link PIECE_PREFIX} (`wordpress`); kinds are `<name>.<action>`. */
  name: string;
  /** The npm package name. */
  packageName: string;
  version: string;
  displayName: string;
  description: string;
  categories: string[];
  /**
   * How the piece expects its connection: `wrapped` (modern framework: `{type, secret_text}`,
   * `{type, props}`, `{type, username, password}`) or `legacy` (framework 0.4–0.7 bundles: the
   * secret text as a string, the custom fields as the object itself).
   */
  authShape: 'wrapped' | 'legacy';
  /** Ways to authenticate (empty: none needed). */
  auth: PieceAuthInfo[];
  actions: PieceActionInfo[];
  triggers: PieceTriggerInfo[];
}

/** A manifest: the pieces of one install (shipped ones, or those added to the data directory). */
export interface PieceManifest {
  format: number;
  pieces: PieceInfo[];
}

/** The short name of a piece's npm name (`@activepieces/piece-wordpress` → `wordpress`). */
export function shortPieceName(packageName: string): string {
  const base = packageName.startsWith(PIECE_PREFIX) ? packageName.slice(PIECE_PREFIX.length) : packageName.replace(/^@[^/]+\//, '');
  return base.toLowerCase().replace(/[^a-z0-9-]/g, '-');
}

type Loose = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const plain = (v: unknown): unknown => {
  try {
    return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
  } catch {
    return undefined;
  }
};

/**
 * Whether `value` looks like a framework piece: an object with a `displayName` and `actions()` and
 * `triggers()` (pieces-framework), or the `_actions` and `_triggers` records of the old
 * `@activepieces/framework` (2023 builds).
 */
export function isPieceObject(value: unknown): value is Loose {
  if (!value || typeof value !== 'object') return false;
  const v = value as Loose;
  if (typeof v.displayName !== 'string') return false;
  return (typeof v.actions === 'function' && typeof v.triggers === 'function') || (!!v._actions && typeof v._actions === 'object');
}

/** A piece's actions (`actions()`, or the old framework's `_actions`). */
export function pieceActions(piece: Loose): Loose[] {
  const table = typeof piece.actions === 'function' ? (piece.actions as () => unknown)() : piece._actions;
  return Object.values((table ?? {}) as Loose) as Loose[];
}

/** A piece's triggers (`triggers()`, or the old framework's `_triggers`). */
export function pieceTriggers(piece: Loose): Loose[] {
  const table = typeof piece.triggers === 'function' ? (piece.triggers as () => unknown)() : piece._triggers;
  return Object.values((table ?? {}) as Loose) as Loose[];
}

/** Property types Taskspace cannot fill: an action with one of them is not offered (the old framework's OAuth2 property, unless adopted as the piece's auth). */
const UNOFFERED_PROPS = new Set(['OAUTH2']);

/** Whether an action can be offered (none of its properties is of {@link UNOFFERED_PROPS}). */
function offered(action: Loose): boolean {
  return !Object.values((action.props ?? {}) as Loose).some((p) => UNOFFERED_PROPS.has(String((p as Loose | undefined)?.type)));
}

/** The name and declaration of an action's OAuth2 property (the first), if it has one. */
function oauthPropOf(action: Loose): [string, Loose] | undefined {
  for (const [name, prop] of Object.entries((action.props ?? {}) as Loose))
    if (prop && typeof prop === 'object' && (prop as Loose).type === 'OAUTH2') return [name, prop as Loose];
  return undefined;
}

/** The `extra` authorization parameters (string values only) and `authorizationMethod` of an OAuth2 declaration, where it has them. */
function oauthOptions(auth: Loose): Pick<PieceAuthInfo, 'extra' | 'authorizationMethod'> {
  const out: Pick<PieceAuthInfo, 'extra' | 'authorizationMethod'> = {};
  if (auth.extra && typeof auth.extra === 'object') {
    const extra = Object.entries(auth.extra as Loose).filter((e): e is [string, string] => typeof e[1] === 'string');
    if (extra.length > 0) out.extra = Object.fromEntries(extra);
  }
  if (auth.authorizationMethod === 'HEADER' || auth.authorizationMethod === 'BODY') out.authorizationMethod = auth.authorizationMethod;
  return out;
}

/**
 * The piece-level OAuth2 auth of an old-framework piece without one, derived from the
 * `Property.OAuth2` its actions and triggers carry: the same `authUrl` and `tokenUrl` everywhere,
 * the union of their scopes, `pkce` when one declares it, the first one's fields and labels.
 * Undefined when no member has one or they point at different endpoints.
 */
export function adoptedOAuth2(members: Loose[]): Loose | undefined {
  const found = members.map(oauthPropOf).filter((f): f is [string, Loose] => f !== undefined);
  if (found.length === 0) return undefined;
  const first = found[0]![1];
  if (typeof first.authUrl !== 'string' || typeof first.tokenUrl !== 'string') return undefined;
  if (found.some(([, p]) => p.authUrl !== first.authUrl || p.tokenUrl !== first.tokenUrl)) return undefined;
  const scope = [...new Set(found.flatMap(([, p]) => (Array.isArray(p.scope) ? (p.scope as unknown[]).map(String) : [])))];
  return {
    type: 'OAUTH2',
    displayName: str(first.displayName) ?? 'Connection',
    ...(str(first.description) ? { description: str(first.description) } : {}),
    required: true,
    authUrl: first.authUrl,
    tokenUrl: first.tokenUrl,
    scope,
    pkce: found.some(([, p]) => p.pkce === true),
    ...oauthOptions(first),
    ...(first.props && typeof first.props === 'object' ? { props: first.props } : {}),
  };
}

/** The piece a loaded module exports (the first export that is one), or undefined. */
export function findPiece(mod: unknown): Loose | undefined {
  if (isPieceObject(mod)) return mod;
  if (!mod || typeof mod !== 'object') return undefined;
  for (const value of Object.values(mod as Loose)) if (isPieceObject(value)) return value;
  return undefined;
}

/** A property's declaration, as plain JSON. */
export function describeProp(prop: Loose): PiecePropInfo {
  const info: PiecePropInfo = {
    type: String(prop.type ?? 'UNKNOWN'),
    displayName: str(prop.displayName) ?? '',
    required: prop.required === true,
  };
  const description = str(prop.description);
  if (description) info.description = description;
  if (prop.defaultValue !== undefined) info.defaultValue = plain(prop.defaultValue);
  const options = prop.options as Loose | undefined;
  if (options && typeof options === 'object' && Array.isArray(options.options))
    info.options = (options.options as Loose[]).map((o) => ({ label: String(o.label ?? o.value), value: plain(o.value) }));
  if (Array.isArray(prop.refreshers)) info.refreshers = (prop.refreshers as unknown[]).map(String);
  if (prop.properties && typeof prop.properties === 'object') info.properties = describeProps(prop.properties as Loose);
  if (info.type === 'MARKDOWN') info.markdown = str(prop.value) ?? description ?? '';
  return info;
}

/** A record of properties, as plain JSON. */
export function describeProps(props: Loose | undefined): Record<string, PiecePropInfo> {
  const out: Record<string, PiecePropInfo> = {};
  for (const [name, prop] of Object.entries(props ?? {})) if (prop && typeof prop === 'object') out[name] = describeProp(prop as Loose);
  return out;
}

function describeAuth(auth: Loose): PieceAuthInfo {
  const info: PieceAuthInfo = {
    type: String(auth.type),
    displayName: str(auth.displayName) ?? 'Connection',
    required: auth.required !== false,
    validates: typeof auth.validate === 'function',
  };
  const description = str(auth.description);
  if (description) info.description = description;
  if (auth.props && typeof auth.props === 'object') info.props = describeProps(auth.props as Loose);
  for (const field of ['username', 'password'] as const) {
    const f = auth[field] as Loose | undefined;
    if (f && typeof f === 'object')
      info[field] = { displayName: str(f.displayName) ?? field, ...(str(f.description) ? { description: str(f.description) } : {}) };
  }
  if (info.type === 'OAUTH2') {
    info.authUrl = str(auth.authUrl);
    info.tokenUrl = str(auth.tokenUrl);
    info.scope = Array.isArray(auth.scope) ? (auth.scope as unknown[]).map(String) : [];
    info.pkce = auth.pkce === true;
    Object.assign(info, oauthOptions(auth));
  }
  return info;
}

/** An action's properties less its OAuth2 property (see {@link oauthPropOf}). */
function withoutAuthProp(action: Loose): Loose {
  const props = { ...((action.props ?? {}) as Loose) };
  const found = oauthPropOf(action);
  if (found) delete props[found[0]];
  return props;
}

/** `props` with `authProp` left out of their refreshers (the connection fills it, the step does not). */
function unrefreshed(props: Record<string, PiecePropInfo>, authProp: string): Record<string, PiecePropInfo> {
  for (const prop of Object.values(props)) if (prop.refreshers) prop.refreshers = prop.refreshers.filter((r) => r !== authProp);
  return props;
}

/** An action's declaration; `adopt`: its OAuth2 property is the piece's auth (named in `authProp`, not a field). */
function describeAction(action: Loose, adopt = false): PieceActionInfo {
  const authProp = adopt ? oauthPropOf(action)?.[0] : undefined;
  return {
    name: String(action.name),
    displayName: str(action.displayName) ?? String(action.name),
    description: str(action.description) ?? '',
    props:
      authProp !== undefined
        ? unrefreshed(describeProps(withoutAuthProp(action)), authProp)
        : describeProps(action.props as Loose | undefined),
    // In a piece whose auth was adopted, a member without the property runs without a connection.
    requireAuth: action.requireAuth !== false && (!adopt || authProp !== undefined),
    ...(authProp !== undefined ? { authProp } : {}),
  };
}

/**
 * What a loaded piece declares, as plain JSON.
 * @param packageName the npm name; @param version its version; @param legacy true for bundles on
 *   the old framework versions (0.4–0.7), whose connection shapes differ (see {@link PieceInfo.authShape}).
 * @throws Error when `mod` exports no piece.
 */
export function describePiece(packageName: string, version: string, mod: unknown, legacy: boolean): PieceInfo {
  const piece = findPiece(mod);
  if (!piece) throw new Error(`${packageName} exports no Activepieces piece (an object with actions() and triggers())`);
  let auths = (piece.auth === undefined ? [] : Array.isArray(piece.auth) ? piece.auth : [piece.auth]) as Loose[];
  // Old-framework actions that take `authentication: Property.OAuth2(…)`: that property becomes the piece's auth.
  const adopted = auths.length === 0 ? adoptedOAuth2([...pieceActions(piece), ...pieceTriggers(piece)]) : undefined;
  if (adopted) auths = [adopted];
  const usable = (member: Loose) => offered(adopted ? { props: withoutAuthProp(member) } : member);
  const actions = pieceActions(piece).filter(usable);
  const triggers = pieceTriggers(piece).filter(usable);
  return {
    name: shortPieceName(packageName),
    packageName,
    version,
    displayName: String(piece.displayName),
    description: str(piece.description) ?? '',
    categories: Array.isArray(piece.categories) ? (piece.categories as unknown[]).map(String) : [],
    authShape: legacy ? 'legacy' : 'wrapped',
    auth: auths.filter((a) => a && typeof a === 'object').map(describeAuth),
    actions: actions.map((a) => describeAction(a, !!adopted)),
    triggers: triggers.map((t) => {
      const sample = sampleOf(t.sampleData);
      const handshake = handshakeOf(t);
      return {
        ...describeAction(t, !!adopted),
        strategy: String(t.type ?? 'POLLING'),
        ...(sample ? { sampleData: sample } : {}),
        ...(handshake ? { handshake } : {}),
      };
    }),
  };
}
