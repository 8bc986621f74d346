/**
 * Runs piece calls for the engine and the host (docs/integrations.md): resolves a step's
 * connection through the host's {@link PieceHost} port, puts it in the shape the piece expects,
 * runs the call on the {@link PiecePool} with the host's guarded HTTP and the piece store, and
 * masks the connection's secret values in whatever comes back.
 */
import { ActionError, permanent } from '../errors';
import type { Http } from '../ports';
import { SecretMask } from '../secrets';
import { PIECE_FILE_MAX_BYTES, readFileProps, type PieceFiles } from './files';
import type { PieceAuthInfo, PieceInfo } from './manifest';
import type { PiecePool } from './pool';
import type { PieceCallContext, PieceFileValue, PieceOperation, PieceWebhookPayload } from './protocol';

/**
 * A connection's value as Taskspace stores it: `{type: 'SECRET_TEXT', secret_text}`,
 * `{type: 'BASIC_AUTH', username, password}`, `{type: 'CUSTOM_AUTH', props}` or
 * `{type: 'OAUTH2', access_token, …}`.
 */
export type ConnectionValue = { type: string } & Record<string, unknown>;

/** A step's connection, as the host hands it over. */
export interface ResolvedConnection {
  id: string;
  name: string;
  /** The piece's short name the connection is for. */
  piece: string;
  value: ConnectionValue;
}

/** What the host gives the piece runner (ports; the server implements them). */
export interface PieceHost {
  /** The module to `require` for a piece (an absolute path). */
  entry(piece: PieceInfo): string;
  /**
   * The connection `connectionId` of `workspaceId`, opened.
   * @throws ActionError CONNECTION_NOT_FOUND (permanent) when the workspace has no such connection.
   */
  connection(workspaceId: string, connectionId: string): Promise<ResolvedConnection>;
  /**
   * OAuth2: the connection with a token newer than `staleAccessToken`, which the provider refused
   * (a 401 answer during the call): the host refreshes it once (or reuses the token another call
   * refreshed meanwhile). Pieces never refresh.
   * @throws ActionError CONNECTION_REFRESH_FAILED when the provider refuses the refresh.
   */
  refresh?(workspaceId: string, connectionId: string, staleAccessToken: string): Promise<ResolvedConnection>;
  /** The piece store: values by `scope` (`automation:<id>` or `workspace:<id>`) and key; `get` resolves to null when absent. */
  store: {
    get(scope: string, key: string): Promise<unknown>;
    put(scope: string, key: string, value: unknown): Promise<void>;
    delete(scope: string, key: string): Promise<void>;
  };
  /** Workspace media for `FILE` properties and `files.write` (absent: both fail with NOT_SUPPORTED). */
  files?: PieceFiles;
  /** The service's public base URL (`server.publicUrl` of the context). */
  publicUrl?: string;
  /** Outbound HTTP for calls outside a run (options, connection tests): the host's guarded port. */
  http: Http;
  pool: PiecePool;
}

/** One call: which piece and what, for which workspace. */
export interface PieceCall {
  piece: PieceInfo;
  op: Exclude<PieceOperation, 'describe'>;
  action?: string;
  prop?: string;
  connectionId?: string;
  /** validate: the value to check (not stored yet). */
  connection?: ConnectionValue;
  propsValue?: Record<string, unknown>;
  /** Triggers: `context.webhookUrl` (the automation's piece hook URL). */
  webhookUrl?: string;
  /** hook: the call to the URL (`context.payload`). */
  payload?: PieceWebhookPayload;
  context: PieceCallContext;
  /** The step's HTTP port (a run's); default the host's. */
  http?: Http;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** The piece store for this call instead of the host's (a trigger's test keeps nothing). */
  store?: PieceHost['store'];
}

/** The auth declaration of `piece` for a connection value of `type`. */
export function authOf(piece: PieceInfo, type: string): PieceAuthInfo | undefined {
  return piece.auth.find((a) => a.type === type);
}

/**
 * A stored connection value in the shape `piece` expects in `context.auth` — or, for `op`
 * `validate`, in what `auth.validate({auth})` gets: the value unwrapped in both framework
 * generations (the secret text, the custom fields, `{username, password}`; OAuth2's whole value).
 */
export function pieceAuth(piece: PieceInfo, value: ConnectionValue, op?: PieceCall['op']): unknown {
  if (piece.authShape === 'wrapped' && op !== 'validate') return value;
  switch (value.type) {
    case 'SECRET_TEXT':
      return value.secret_text;
    case 'CUSTOM_AUTH':
      return value.props;
    case 'BASIC_AUTH':
      return { username: value.username, password: value.password };
    default:
      return value;
  }
}

/**
 * The values a call's piece gets in `propsValue`: the step's, plus — for an old-framework action
 * whose `Property.OAuth2` became the piece's auth (`PieceActionInfo.authProp`) — the
 * connection's OAuth2 value in that property, as the old framework's actions read it
 * (`context.propsValue.authentication.access_token`, `.props`, `.data`).
 */
export function callProps(
  call: Pick<PieceCall, 'piece' | 'action' | 'propsValue'>,
  value: ConnectionValue | undefined,
): Record<string, unknown> {
  const props = call.propsValue ?? {};
  if (call.action === undefined || value?.type !== 'OAUTH2') return props;
  const member = [...call.piece.actions, ...call.piece.triggers].find((a) => a.name === call.action);
  if (!member?.authProp) return props;
  return { ...props, [member.authProp]: { ...value, data: value.data ?? {} } };
}

/** The secret strings of a connection value (masked in everything a run records): secret text, passwords, tokens, secret custom fields. */
export function secretStrings(piece: PieceInfo, value: ConnectionValue): string[] {
  const out: string[] = [];
  const add = (v: unknown) => {
    if (typeof v === 'string' && v.length >= 4) out.push(v);
  };
  add(value.secret_text);
  add(value.password);
  add(value.access_token);
  add(value.refresh_token);
  add(value.client_secret);
  const props = (value.props ?? {}) as Record<string, unknown>;
  const declared = authOf(piece, value.type)?.props ?? {};
  const plain: string[] = typeof value.username === 'string' ? [value.username] : [];
  for (const [name, v] of Object.entries(props)) {
    const type = declared[name]?.type;
    if (type === 'SECRET_TEXT' || type === undefined || /pass|secret|token|key/i.test(name)) add(v);
    else if (typeof v === 'string') plain.push(v);
  }
  // `user:secret`, as Basic authentication sends it (base64 of the pair is masked with it).
  for (const secret of [...out]) for (const user of plain) if (user.length < 200) out.push(`${user}:${secret}`);
  return out;
}

/** The piece runner of one host. */
export class PieceRunner {
  constructor(private readonly host: PieceHost) {}

  /**
   * Runs `call` and resolves to its output with the connection's secrets masked.
   * @throws ActionError CONNECTION_NOT_FOUND, CONNECTION_MISMATCH (a connection of another piece),
   *   the pool's errors (PIECE_TIMEOUT, PIECE_MEMORY, NOT_SUPPORTED, PIECE_ERROR…), messages masked.
   */
  async call(call: PieceCall): Promise<unknown> {
    const { piece } = call;
    let value = call.connection;
    let label = 'connection';
    if (call.connectionId !== undefined && value === undefined) {
      const connection = await this.host.connection(call.context.workspaceId, call.connectionId);
      if (connection.piece !== piece.name)
        throw permanent('CONNECTION_MISMATCH', `connection '${connection.name}' is for ${connection.piece}, not ${piece.name}`, {
          field: 'connectionId',
        });
      value = connection.value;
      label = `connection ${connection.name}`;
    }
    // FILE properties naming workspace media are read once, before the first attempt.
    const action = call.op === 'run' ? piece.actions.find((a) => a.name === call.action) : undefined;
    const read = action
      ? await readFileProps(action.props, call.propsValue ?? {}, call.context.workspaceId, {
          files: this.host.files,
          http: call.http ?? this.host.http,
          ...(call.signal ? { signal: call.signal } : {}),
        })
      : { values: call.propsValue ?? {}, files: {} };
    call = { ...call, propsValue: read.values };
    const files = read.files;
    const refused = { seen: false };
    try {
      return await this.attempt(call, value, label, refused, undefined, files);
    } catch (error) {
      // An OAuth2 token the provider refused: the host refreshes it once and the call is made again.
      const stale = value?.type === 'OAUTH2' && typeof value.access_token === 'string' ? value.access_token : undefined;
      if (!refused.seen || !stale || call.connectionId === undefined || !this.host.refresh || call.signal?.aborted) throw error;
      const fresh = await this.host.refresh(call.context.workspaceId, call.connectionId, stale);
      return this.attempt(call, fresh.value, label, { seen: false }, value, files);
    }
  }

  /** One call of the piece with connection `value` (`stale`: the value it replaced, masked too); `refused.seen` turns true when a response was a 401. */
  private async attempt(
    call: PieceCall,
    value: ConnectionValue | undefined,
    label: string,
    refused: { seen: boolean },
    stale?: ConnectionValue,
    files: Record<string, PieceFileValue> = {},
  ): Promise<unknown> {
    const { piece } = call;
    const mask = new SecretMask();
    const secrets = [...(value ? secretStrings(piece, value) : []), ...(stale ? secretStrings(piece, stale) : [])];
    mask.add(Object.fromEntries(secrets.map((s, i) => [`${label}${i === 0 ? '' : ` #${i + 1}`}`, s])));
    const http = call.http ?? this.host.http;
    const scopeOf = (scope: 'FLOW' | 'PROJECT') =>
      scope === 'FLOW' && call.context.automationId ? `automation:${call.context.automationId}` : `workspace:${call.context.workspaceId}`;
    try {
      const output = await this.host.pool.call(
        {
          entry: this.host.entry(piece),
          op: call.op,
          ...(call.action !== undefined ? { action: call.action } : {}),
          ...(call.prop !== undefined ? { prop: call.prop } : {}),
          ...(value ? { auth: pieceAuth(piece, value, call.op), authType: value.type } : {}),
          propsValue: callProps(call, value),
          ...(Object.keys(files).length > 0 ? { files } : {}),
          ...(call.webhookUrl !== undefined ? { webhookUrl: call.webhookUrl } : {}),
          ...(call.payload !== undefined ? { payload: call.payload } : {}),
          context: { ...call.context, ...(this.host.publicUrl ? { publicUrl: this.host.publicUrl } : {}) },
        },
        {
          http: async (request) => {
            const response = await http.request(request);
            if (response.status === 401) refused.seen = true;
            return response;
          },
          store: async (m) => {
            const scope = scopeOf(m.scope);
            const store = call.store ?? this.host.store;
            if (m.op === 'get') return store.get(scope, m.key);
            if (m.op === 'put') return store.put(scope, m.key, m.value ?? null);
            return store.delete(scope, m.key);
          },
          writeFile: async (fileName, data) => {
            if (!this.host.files) throw permanent('NOT_SUPPORTED', 'files.write is not available on this host');
            if (data.length > PIECE_FILE_MAX_BYTES)
              throw permanent(
                'FILE_TOO_LARGE',
                `files.write: ${data.length} bytes is more than the limit of ${PIECE_FILE_MAX_BYTES} bytes`,
              );
            const where = {
              workspaceId: call.context.workspaceId,
              ...(call.context.automationId ? { automationId: call.context.automationId } : {}),
            };
            return this.host.files.write(where, fileName, data);
          },
          ...(call.signal ? { signal: call.signal } : {}),
          ...(call.timeoutMs !== undefined ? { timeoutMs: call.timeoutMs } : {}),
        },
      );
      return mask.apply(output);
    } catch (error) {
      if (error instanceof ActionError)
        throw new ActionError(error.code, mask.apply(error.message), error.transient, mask.apply(error.extra));
      throw error;
    }
  }
}
