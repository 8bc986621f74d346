/**
 * A piece worker (docs/integrations.md "Running pieces"): a worker thread, with the memory
 * limits the pool gives it, that loads Activepieces pieces (`require`, cached per worker) and
 * runs one call at a time: an action's `run(context)`, a dropdown's `options()`, a dynamic
 * property's `props()`, or a connection's `auth.validate()`. The piece's HTTP goes through the
 * pool ({@link installNetworkShims}), and so does its store. What Taskspace does not offer
 * (waitpoints, pausing, app-level webhooks, other connections) fails with a
 * `NOT_SUPPORTED` error instead of doing something else.
 */
import { parentPort } from 'node:worker_threads';
import { findPiece, pieceActions, pieceTriggers } from './manifest';
import type {
  PieceCallMessage,
  PieceDoneMessage,
  PieceFileWriteMessage,
  PieceHttpMessage,
  PieceReplyMessage,
  PieceStoreMessage,
} from './protocol';
import { installNetworkShims } from './worker-net';

type Loose = Record<string, unknown>;
const port = parentPort!;

/** This thread's link to the pool: the questions (HTTP, store) waiting for their replies. */
class Link {
  private readonly pending = new Map<number, (reply: PieceReplyMessage) => void>();
  private nextId = 1;

  /** Asks the pool and waits for its reply. */
  ask(
    message: Omit<PieceHttpMessage, 'id'> | Omit<PieceStoreMessage, 'id'> | Omit<PieceFileWriteMessage, 'id'>,
  ): Promise<PieceReplyMessage> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      port.postMessage({ ...message, id });
    });
  }

  /** Hands a reply to its question. */
  answer(reply: PieceReplyMessage): void {
    const waiter = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    waiter?.(reply);
  }
}
const link = new Link();
const ask = link.ask.bind(link);

installNetworkShims(async (request) => {
  const reply = await ask({ type: 'http', request });
  if (!reply.ok) throw Object.assign(new Error(reply.error?.message ?? 'the request failed'), { code: reply.error?.code });
  return reply.response!;
});

function unsupported(what: string): () => never {
  return () => {
    throw Object.assign(new Error(`${what} is not supported by Taskspace`), { code: 'NOT_SUPPORTED' });
  };
}

/** The piece's store: FLOW scope is the automation's, PROJECT (COLLECTION) the workspace's. */
function store() {
  const scopeOf = (scope: unknown): 'FLOW' | 'PROJECT' => (scope === 'COLLECTION' || scope === 'PROJECT' ? 'PROJECT' : 'FLOW');
  const call = async (op: 'get' | 'put' | 'delete', key: string, scope: unknown, value?: unknown) => {
    const reply = await ask({ type: 'store', op, key: String(key), scope: scopeOf(scope), ...(value !== undefined ? { value } : {}) });
    if (!reply.ok) throw new Error(reply.error?.message ?? 'the store failed');
    return reply.value;
  };
  return {
    get: (key: string, scope?: unknown) => call('get', key, scope).then((v) => v ?? null),
    put: async (key: string, value: unknown, scope?: unknown) => {
      await call('put', key, scope, value === undefined ? null : JSON.parse(JSON.stringify(value)));
      return value;
    },
    delete: async (key: string, scope?: unknown) => {
      await call('delete', key, scope);
    },
  };
}

/** The piece's `files.write({fileName, data})`: the host stores the bytes as workspace media and answers their reference (a URL). */
async function writeFile(input: { fileName?: unknown; data?: unknown }): Promise<string> {
  const data = input?.data;
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data instanceof Uint8Array ? Buffer.from(data) : undefined;
  if (!bytes) throw Object.assign(new Error('files.write needs data as a Buffer'), { code: 'INVALID_INPUT' });
  const reply = await ask({ type: 'file', fileName: String(input.fileName ?? 'file'), base64: bytes.toString('base64') });
  if (!reply.ok) throw Object.assign(new Error(reply.error?.message ?? 'files.write failed'), { code: reply.error?.code });
  return String(reply.value);
}

/** The `FILE` properties of a call as Activepieces' ApFile: `{filename, extension, data, base64}`. */
function withFiles(message: PieceCallMessage): Loose {
  const out: Loose = { ...(message.propsValue ?? {}) };
  for (const [name, f] of Object.entries(message.files ?? {}))
    out[name] = { filename: f.filename, extension: f.extension, data: Buffer.from(f.base64, 'base64'), base64: f.base64 };
  return out;
}

/** The context a piece's `run`, `options` or `props` receives (Activepieces' action context, less what Taskspace lacks). */
function contextOf(message: PieceCallMessage): Loose {
  const c = message.context;
  const publicUrl = (c.publicUrl ?? '').replace(/\/$/, '');
  return {
    auth: message.auth,
    propsValue: withFiles(message),
    store: store(),
    files: { write: writeFile },
    server: { apiUrl: `${publicUrl}/api/`, publicUrl: `${publicUrl}/`, token: '' },
    project: { id: c.workspaceId, externalId: async () => undefined },
    flows: { current: { id: c.automationId ?? '', version: { id: '' } }, list: unsupported('flows.list') },
    step: { name: c.stepName ?? '' },
    run: {
      id: c.runId ?? '',
      name: c.runId ?? '',
      stop: unsupported('run.stop'),
      pause: unsupported('run.pause (waitpoints)'),
      respond: unsupported('run.respond'),
      createWaitpoint: unsupported('waitpoints'),
      waitForWaitpoint: unsupported('waitpoints'),
    },
    connections: { get: unsupported('connections.get') },
    tags: { add: async () => undefined },
    output: { update: async () => undefined },
    agent: { tools: unsupported('agent tools') },
    generateResumeUrl: unsupported('resume URLs (waitpoints)'),
    executionType: 'BEGIN',
    resumePayload: undefined,
  };
}

function pieceOf(entry: string): Loose {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- pieces are CommonJS bundles loaded by name or path on demand
  const piece = findPiece(require(entry));
  if (!piece) throw new Error(`${entry} exports no Activepieces piece`);
  return piece;
}

function member(piece: Loose, name: string | undefined): Loose {
  const found = pieceActions(piece).find((a) => a.name === name) ?? pieceTriggers(piece).find((t) => t.name === name);
  if (!found) throw Object.assign(new Error(`the piece has no action or trigger '${String(name)}'`), { code: 'PIECE_UNKNOWN_ACTION' });
  return found;
}

async function perform(message: PieceCallMessage): Promise<unknown> {
  const piece = pieceOf(message.entry);
  const context = contextOf(message);
  switch (message.op) {
    case 'describe':
      return { displayName: piece.displayName };
    case 'run': {
      const action = member(piece, message.action);
      return await (action.run as (ctx: Loose) => Promise<unknown>)(context);
    }
    case 'enable':
    case 'disable':
    case 'poll':
    case 'hook':
    case 'handshake':
    case 'test': {
      // Activepieces' trigger context (engine trigger-helper): the run context plus the URL and the call.
      const trigger = member(piece, message.action);
      const triggerContext = {
        ...context,
        setSchedule: () => undefined,
        webhookUrl: message.webhookUrl,
        payload: message.payload ?? {},
        app: { createListeners: unsupported('app webhooks') },
      };
      const hook = (name: string) => trigger[name] as ((ctx: Loose) => Promise<unknown>) | undefined;
      if (message.op === 'enable' || message.op === 'disable') {
        const fn = hook(message.op === 'enable' ? 'onEnable' : 'onDisable');
        if (typeof fn === 'function') await fn.call(trigger, triggerContext);
        return null;
      }
      if (message.op === 'handshake') {
        // Activepieces answers 200 for a trigger that declares a handshake without onHandshake.
        const fn = hook('onHandshake');
        return (typeof fn === 'function' ? await fn.call(trigger, triggerContext) : null) ?? { status: 200 };
      }
      if (message.op === 'test') {
        // The trigger's own test (recent items from its service); null when it has none, for the host's sample.
        const fn = hook('test');
        const items = typeof fn === 'function' ? await fn.call(trigger, triggerContext) : null;
        return Array.isArray(items) ? items : null;
      }
      const items = await (trigger.run as (ctx: Loose) => Promise<unknown>)(triggerContext);
      return Array.isArray(items) ? items : [];
    }
    case 'options': {
      const prop = ((member(piece, message.action).props as Loose | undefined) ?? {})[message.prop ?? ''] as Loose | undefined;
      if (!prop) throw Object.assign(new Error(`no property '${String(message.prop)}'`), { code: 'PIECE_UNKNOWN_PROP' });
      const input = { auth: message.auth, ...(message.propsValue ?? {}) };
      if (typeof prop.options === 'function') return await (prop.options as (i: Loose, c: Loose) => Promise<unknown>)(input, context);
      if (typeof prop.props === 'function') {
        const fields = (await (prop.props as (i: Loose, c: Loose) => Promise<Loose>)(input, context)) ?? {};
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- the describer is shared with the manifest
        const { describeProps } = require('./manifest') as typeof import('./manifest');
        return { props: describeProps(fields) };
      }
      throw Object.assign(new Error(`property '${String(message.prop)}' has no dynamic options`), { code: 'PIECE_UNKNOWN_PROP' });
    }
    case 'validate': {
      const auths = piece.auth === undefined ? [] : Array.isArray(piece.auth) ? (piece.auth as Loose[]) : [piece.auth as Loose];
      const type = message.authType ?? (message.auth as { type?: unknown } | undefined)?.type;
      const auth = auths.find((a) => a.type === type) ?? auths[0];
      if (!auth || typeof auth.validate !== 'function') return { valid: true, checked: false };
      const verdict = (await (auth.validate as (i: Loose) => Promise<Loose>)({ auth: message.auth, server: context.server })) ?? {};
      return { valid: verdict.valid === true, checked: true, ...(typeof verdict.error === 'string' ? { error: verdict.error } : {}) };
    }
  }
}

function errorOf(error: unknown): { code: string; message: string } {
  const e = error as { code?: unknown; message?: unknown; response?: { body?: unknown; status?: unknown } } | undefined;
  let message = typeof e?.message === 'string' ? e.message : String(error);
  // pieces-common's HttpError carries the response; its message is JSON with status and body.
  if (e?.response && typeof e.response === 'object' && e.response.status !== undefined) message = `${message}`.slice(0, 2000);
  const code =
    typeof e?.code === 'string' && /^[A-Z_]+$/.test(e.code)
      ? e.code
      : message.startsWith('NOT_SUPPORTED')
        ? 'NOT_SUPPORTED'
        : 'PIECE_ERROR';
  return { code, message: message.slice(0, 4000) };
}

port.on('message', (message: PieceCallMessage | PieceReplyMessage) => {
  if (message.type === 'reply') {
    link.answer(message);
    return;
  }
  perform(message).then(
    (output) => {
      let plain: unknown;
      try {
        plain = output === undefined ? null : JSON.parse(JSON.stringify(output));
      } catch {
        plain = String(output);
      }
      port.postMessage({ type: 'done', id: message.id, ok: true, output: plain } satisfies PieceDoneMessage);
    },
    (error: unknown) => port.postMessage({ type: 'done', id: message.id, ok: false, error: errorOf(error) } satisfies PieceDoneMessage),
  );
});
port.postMessage({ type: 'ready' });
