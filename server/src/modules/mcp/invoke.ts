import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import type { ToolSpec } from './tools';

/**
 * Running a tool: its route, called over this process's own listening socket (loopback) with the
 * caller's own bearer token, so the request meter, scopes, roles, validation and the error
 * envelope are the REST API's (each call counts against the account's hourly budget like a REST
 * request). Not `app.inject`: its cookie dependency is an ES module, which jest's in-process
 * servers cannot load.
 */

/** A JSON value's text. */
type Json = unknown;

/** What a tool call answers (MCP `CallToolResult`). */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** The caller of a tool: the bearer token it presented to /mcp. */
export interface ToolCaller {
  token: string;
}

/** An answer of the REST API as a tool's result: 2xx → the JSON (structured too), else the error envelope as a tool error. */
function toResult(tool: ToolSpec, status: number, payload: string): ToolResult {
  let body: Json = payload;
  try {
    body = payload === '' ? {} : JSON.parse(payload);
  } catch {
    // Not JSON: given as text.
  }
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  if (status >= 200 && status < 300) {
    const structured = tool.outputSchema && body && typeof body === 'object' && !Array.isArray(body);
    return { content: [{ type: 'text', text }], ...(structured ? { structuredContent: body as Record<string, unknown> } : {}) };
  }
  const envelope = body as { code?: string; message?: string } | undefined;
  const headline = envelope?.code ? `${status} ${envelope.code}: ${envelope.message ?? ''}` : `HTTP ${status}`;
  return { isError: true, content: [{ type: 'text', text: `${headline}\n${text}` }] };
}

/** The loopback URL of the app's own socket (`0.0.0.0` and `::` are reached on 127.0.0.1 and ::1). */
function selfBase(app: FastifyInstance): string {
  const address = app.server.address();
  if (!address || typeof address !== 'object') throw new Error('the server does not listen on a TCP port');
  if (address.family === 'IPv6') return `http://[${address.address === '::' ? '::1' : address.address}]:${address.port}`;
  return `http://${address.address === '0.0.0.0' ? '127.0.0.1' : address.address}:${address.port}`;
}

/** One request to the app's own REST API: its status and body text. */
async function loopback(
  app: FastifyInstance,
  method: string,
  path: string,
  token: string,
  payload?: string,
): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const response = await request(selfBase(app) + path, {
    method: method as 'GET',
    headers,
    ...(payload !== undefined ? { body: payload } : {}),
  });
  return { status: response.statusCode, text: await response.body.text() };
}

/** A tool error for bad arguments, in the API's envelope shape. */
function argumentError(field: string, message: string): ToolResult {
  const envelope = {
    ok: false,
    code: 'VALIDATION_ERROR',
    message,
    error: { code: 'VALIDATION_ERROR', message, details: { field, reason: 'required' } },
  };
  return { isError: true, content: [{ type: 'text', text: `400 VALIDATION_ERROR: ${message}\n${JSON.stringify(envelope)}` }] };
}

/**
 * Calls `tool`'s route with `args` as `caller`.
 * @returns the route's answer as a tool result; never throws for a refused request (that is a tool error).
 */
export async function invokeTool(
  app: FastifyInstance,
  tool: ToolSpec,
  args: Record<string, unknown>,
  caller: ToolCaller,
): Promise<ToolResult> {
  let url = tool.route.url;
  for (const key of tool.pathKeys) {
    const value = args[key];
    if (value === undefined || value === null || value === '') return argumentError(key, `${key} is required`);
    url = url.replace(`:${key}`, encodeURIComponent(String(value)));
  }
  const query = new URLSearchParams();
  for (const key of tool.queryKeys) {
    const value = args[key];
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value])
      query.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
  }
  let payload: Json;
  if (tool.body === 'nested') payload = args.body;
  else if (tool.body === 'flat') {
    const body: Record<string, unknown> = {};
    for (const key of tool.bodyKeys) if (args[key] !== undefined) body[key] = args[key];
    payload = body;
  }
  const search = query.toString();
  const answer = await loopback(
    app,
    tool.route.method,
    url + (search ? `?${search}` : ''),
    caller.token,
    payload === undefined ? undefined : JSON.stringify(payload),
  );
  return toResult(tool, answer.status, answer.text);
}

/** A GET of the REST API as `caller`, parsed; undefined unless 200. */
export async function getJson<T>(app: FastifyInstance, url: string, caller: ToolCaller): Promise<T | undefined> {
  const answer = await loopback(app, 'GET', url, caller.token);
  return answer.status === 200 ? (JSON.parse(answer.text) as T) : undefined;
}
