/**
 * Messages between the piece pool (`pool.ts`, the engine's thread) and a piece worker
 * (`worker.ts`). A call runs one operation of one piece; while it runs, the worker asks the pool
 * for each HTTP request the piece makes (answered through the host's guarded {@link Http} port)
 * and each store operation.
 */
import type { HttpRequest, HttpResponse } from '../ports';

/**
 * What a call does: run an action, compute a dropdown's options or a dynamic property's fields,
 * check a connection, enable a trigger (`onEnable`), disable it (`onDisable`), poll a polling
 * trigger (`run`: the new items) or hand a webhook trigger one call to its URL (`hook`: `run`
 * with the call as `payload`, the items it returns).
 */
export type PieceOperation = 'run' | 'options' | 'validate' | 'describe' | 'enable' | 'disable' | 'poll' | 'hook' | 'handshake' | 'test';

/** One call to a webhook trigger's URL, as the trigger's `run` reads it in `context.payload` (Activepieces' TriggerPayload). */
export interface PieceWebhookPayload {
  /** The parsed body: JSON, a form's fields, or text. */
  body: unknown;
  headers: Record<string, string>;
  queryParams: Record<string, string>;
  method: string;
  /** The body as text (when small enough). */
  rawBody?: string;
}

/** The context values a piece reads (`server.publicUrl`, `run.id`, `step.name`…). */
export interface PieceCallContext {
  workspaceId: string;
  automationId?: string;
  runId?: string;
  stepName?: string;
  publicUrl?: string;
}

/** Pool → worker: one call. */
export interface PieceCallMessage {
  type: 'call';
  id: number;
  /** The module to `require` (an absolute path or an npm name). */
  entry: string;
  op: PieceOperation;
  /** run: the action's name; options: the action (or trigger) holding the property. */
  action?: string;
  /** options: the property's name. */
  prop?: string;
  /** The connection's value in the piece's shape, or undefined. */
  auth?: unknown;
  /** The connection's type (SECRET_TEXT, CUSTOM_AUTH…): validate checks with that auth of the piece. */
  authType?: string;
  propsValue?: Record<string, unknown>;
  /** run: the `FILE` properties read from workspace media, by name; the worker adds them to `propsValue` as ApFiles. */
  files?: Record<string, PieceFileValue>;
  /** enable, disable, hook: the trigger's URL (`context.webhookUrl`). */
  webhookUrl?: string;
  /** hook: the call to the URL (`context.payload`). */
  payload?: PieceWebhookPayload;
  context: PieceCallContext;
}

/** A file as it crosses the worker boundary (the worker makes it an ApFile: `data` a Buffer of the bytes). */
export interface PieceFileValue {
  filename: string;
  /** Without the dot; `''` when the name has none. */
  extension: string;
  /** The bytes, base64. */
  base64: string;
}

/** Worker → pool: the piece's `files.write({fileName, data})`; the reply's `value` is the reference (a media content URL). */
export interface PieceFileWriteMessage {
  type: 'file';
  id: number;
  fileName: string;
  /** The bytes, base64. */
  base64: string;
}

/** Worker → pool: an HTTP request of the piece. */
export interface PieceHttpMessage {
  type: 'http';
  id: number;
  request: Omit<HttpRequest, 'signal' | 'timeoutMs'> & { timeoutMs?: number };
}

/** Worker → pool: a store operation (`scope` is FLOW or PROJECT). */
export interface PieceStoreMessage {
  type: 'store';
  id: number;
  op: 'get' | 'put' | 'delete';
  scope: 'FLOW' | 'PROJECT';
  key: string;
  value?: unknown;
}

/** Pool → worker: the answer to a {@link PieceHttpMessage}, {@link PieceStoreMessage} or {@link PieceFileWriteMessage}. */
export interface PieceReplyMessage {
  type: 'reply';
  id: number;
  ok: boolean;
  response?: HttpResponse;
  value?: unknown;
  error?: { code: string; message: string };
}

/** Worker → pool: how a call ended. */
export interface PieceDoneMessage {
  type: 'done';
  id: number;
  ok: boolean;
  output?: unknown;
  error?: { code: string; message: string };
}

/** Any message a worker sends. */
export type WorkerMessage = PieceHttpMessage | PieceStoreMessage | PieceFileWriteMessage | PieceDoneMessage | { type: 'ready' };
