/**
 * Tools of an `agent.command` step (issue 27 item 10; docs/automations.md "Agent tools"): the
 * automation's own actions offered to the model as functions it may call (OpenAI tool calling).
 * The author lists the tools and may fix some of their arguments (a project, HTTP headers holding
 * secrets); the model supplies the rest. Each call's arguments are checked against the tool's
 * schema, the call runs through the same {@link Service} and {@link Http} ports as the step kinds,
 * and its result (secrets masked) goes back to the model. Every call is journalled in the step
 * output's `toolCalls`.
 */
import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { createHash } from 'node:crypto';
import { ActionError, classifyError, permanent } from '../../../errors';
import type { AgentToolCall, AgentToolDefinition, HttpRequest } from '../../../ports';
import { redactHeaders } from '../../../redaction';
import { OneOf } from '../../parts';
import type { Scope, Templates } from '../../../templates';
import type { ActionContext } from '../../executor';
import { openMcpTools, type ExtraTool, type PreparedMcpServer } from './mcp-tools';

/** Tool-call rounds allowed by default (one round: the model asks for calls, they run, results go back). */
export const DEFAULT_MAX_TOOL_ROUNDS = 5;
/** Most tool-call rounds one step may allow. */
export const MAX_TOOL_ROUNDS_LIMIT = 20;
/** Most tool calls one step runs; further calls are refused and reported to the model. */
export const MAX_TOOL_CALLS = 50;
/** Time limit of one HTTP tool call, in ms. */
const TOOL_HTTP_TIMEOUT_MS = 30_000;

const host = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: '^(\\*\\.)?[A-Za-z0-9.-]+(:[0-9]{1,5})?$',
  title: 'Host',
  examples: ['api.example.com', '*.example.com'],
});

/** The `tools` field of an `agent.command` step (TypeBox, with the builder's annotations). */
export const AgentToolsSchema = Type.Array(
  OneOf(
    [
      Type.Object(
        {
          type: Type.Literal('task.create', { title: 'Tool' }),
          projectId: Type.Optional(
            Type.String({
              maxLength: 20_000,
              title: 'Project',
              'x-picker': 'project',
              description: 'Fixed by the author; absent: the model names the project.',
            }),
          ),
          description: Type.Optional(Type.String({ maxLength: 1000, title: 'Description for the model' })),
        },
        { additionalProperties: false, title: 'Create a task' },
      ),
      Type.Object(
        {
          type: Type.Literal('comment.create', { title: 'Tool' }),
          projectId: Type.Optional(
            Type.String({
              maxLength: 20_000,
              title: 'Project',
              'x-picker': 'project',
              description: 'Fixed by the author; absent: the model names the project.',
            }),
          ),
          description: Type.Optional(Type.String({ maxLength: 1000, title: 'Description for the model' })),
        },
        { additionalProperties: false, title: 'Comment on a task' },
      ),
      Type.Object(
        {
          type: Type.Literal('http.request', { title: 'Tool' }),
          allowedHosts: Type.Array(host, {
            minItems: 1,
            maxItems: 20,
            title: 'Allowed hosts',
            description: 'The only hosts the model may call (`*.example.com` covers subdomains).',
          }),
          headers: Type.Optional(
            Type.Record(Type.String(), Type.String({ maxLength: 20_000, 'x-editor': 'template', title: 'Value' }), {
              maxProperties: 50,
              title: 'Headers',
              description: 'Sent with every call (templates; may read secrets: the model never sees them).',
            }),
          ),
          description: Type.Optional(Type.String({ maxLength: 1000, title: 'Description for the model' })),
        },
        { additionalProperties: false, title: 'Send an HTTP request' },
      ),
    ],
    { title: 'Tool' },
  ),
  { minItems: 1, maxItems: 10, title: 'Tools', description: "The automation's actions the model may call." },
);

/** The `tools` field as written in a definition. */
export type AgentToolConfig = Static<typeof AgentToolsSchema>[number];

/** The `maxToolRounds` field of an `agent.command` step. */
export const MaxToolRoundsSchema = Type.Integer({
  minimum: 1,
  maximum: MAX_TOOL_ROUNDS_LIMIT,
  default: DEFAULT_MAX_TOOL_ROUNDS,
  title: 'Most tool rounds',
});

/** A tool with the author's templates rendered. */
export type PreparedTool =
  | { type: 'task.create' | 'comment.create'; projectId?: string; description?: string }
  | { type: 'http.request'; allowedHosts: string[]; headers: Record<string, string>; description?: string };

/** One journalled tool call: `output` when it ran, `error` when it was refused or failed. */
export interface ToolCallRecord {
  name: string;
  arguments: unknown;
  output?: unknown;
  error?: { code: string; message: string };
}

/** The function name the model sees for a tool kind (OpenAI names allow no dots). */
export const TOOL_NAMES = { 'task.create': 'task_create', 'comment.create': 'comment_create', 'http.request': 'http_request' } as const;

/**
 * Renders the author's parts of the tools (`tools[i].projectId`, `tools[i].headers.X`).
 * @throws ActionError INVALID_INPUT for a header value with a line break; a template error.
 */
export function prepareTools(tools: AgentToolConfig[], s: Scope, t: Templates): PreparedTool[] {
  return tools.map((tool, i) => {
    const description = tool.description === undefined ? {} : { description: tool.description };
    if (tool.type === 'http.request') {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(tool.headers ?? {})) {
        const field = `tools[${i}].headers.${k}`;
        const value = t.render(v, s, field);
        if (/[\r\n]/.test(value)) throw permanent('INVALID_INPUT', `header '${k}' must not contain line breaks`, { field });
        headers[k.toLowerCase()] = value;
      }
      return { type: tool.type, allowedHosts: tool.allowedHosts.map((h) => h.toLowerCase()), headers, ...description };
    }
    const projectId = tool.projectId === undefined ? undefined : t.render(tool.projectId, s, `tools[${i}].projectId`).trim();
    return { type: tool.type, ...(projectId ? { projectId } : {}), ...description };
  });
}

/**
 * Save check: each tool kind at most once (the model tells tools apart by their function name).
 * @returns the index of the first repeated tool, or -1.
 */
export function repeatedTool(tools: { type: string }[]): number {
  return tools.findIndex((tool, i) => tools.findIndex((other) => other.type === tool.type) !== i);
}

/** The tools as journalled (header values of credentials redacted). */
export function journalTools(tools: PreparedTool[]): unknown[] {
  return tools.map((tool) => (tool.type === 'http.request' ? { ...tool, headers: redactHeaders(tool.headers) } : tool));
}

const text = (title: string) => Type.String({ minLength: 1, maxLength: 20_000, description: title });

/** The arguments the model gives a tool: what the author did not fix. */
function argumentSchema(tool: PreparedTool): TObject {
  if (tool.type !== 'http.request') {
    const fields: TProperties = tool.projectId ? {} : { projectId: text('The project id') };
    if (tool.type === 'comment.create') fields.taskId = text('The task id');
    fields.text = text(tool.type === 'task.create' ? 'The task text' : 'The comment');
    return Type.Object(fields, { additionalProperties: false });
  }
  return Type.Object(
    {
      method: Type.Union(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => Type.Literal(m))),
      url: Type.String({ minLength: 1, maxLength: 8000, description: `An http(s) URL on ${tool.allowedHosts.join(', ')}` }),
      body: Type.Optional(Type.Unknown({ description: 'A JSON body' })),
    },
    { additionalProperties: false },
  );
}

const DESCRIPTIONS: Record<PreparedTool['type'], string> = {
  'task.create': 'Creates a task in a project.',
  'comment.create': 'Adds a comment to a task.',
  'http.request': 'Sends an HTTP request to an allowed host and returns its status and body.',
};

/** The function definitions sent to the model. */
export function toolDefinitions(tools: PreparedTool[]): AgentToolDefinition[] {
  return tools.map((tool) => ({
    name: TOOL_NAMES[tool.type],
    description: tool.description ?? DESCRIPTIONS[tool.type],
    parameters: JSON.parse(JSON.stringify(argumentSchema(tool))) as Record<string, unknown>,
  }));
}

/** True when `hostname` (and port) is one of `allowed` (`*.example.com`: its subdomains). */
export function hostAllowed(url: URL, allowed: string[]): boolean {
  const name = url.hostname.toLowerCase();
  return allowed.some((entry) => {
    const [pattern, port] = entry.split(':') as [string, string | undefined];
    if (port !== undefined && port !== url.port) return false;
    return pattern.startsWith('*.') ? name.endsWith(pattern.slice(1)) : name === pattern;
  });
}

class ToolRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function parsed(contentType: string | undefined, body: string): unknown {
  if (contentType && /[/+]json\b/i.test(contentType) && body !== '') {
    try {
      return JSON.parse(body);
    } catch {
      return body;
    }
  }
  return body;
}

/**
 * The effect key of a call: the call's name and arguments, and how many identical calls came
 * before it in this attempt. A repeated attempt (a retry, a resume after a crash) whose model asks
 * for the same call again gets the recorded result instead of acting twice; a different call acts.
 */
function effectKey(call: AgentToolCall, seen: Map<string, number>): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([call.name, call.arguments]))
    .digest('base64url')
    .slice(0, 22);
  const n = (seen.get(digest) ?? 0) + 1;
  seen.set(digest, n);
  return `${digest}.${n}`;
}

async function run(ctx: ActionContext, tool: PreparedTool, args: Record<string, unknown>, key: string): Promise<unknown> {
  // Each call is its own effect of the step, keyed by what it does (see `effectKey`).
  const stepId = `${ctx.serviceContext.stepId}.tool.${key}`;
  const sc = { ...ctx.serviceContext, stepId, idempotencyKey: `${ctx.serviceContext.runId}:${stepId}` };
  if (tool.type !== 'http.request') {
    const projectId = tool.projectId ?? String(args.projectId);
    if (tool.type === 'task.create') return ctx.service.createTask(sc, { projectId, text: String(args.text) });
    if (!ctx.service.createComment) throw new ToolRefused('NOT_SUPPORTED', 'this host has no comments');
    return ctx.service.createComment(sc, { projectId, taskId: String(args.taskId), text: String(args.text) });
  }
  let url: URL;
  try {
    url = new URL(String(args.url));
  } catch {
    throw new ToolRefused('INVALID_URL', `'${String(args.url).slice(0, 200)}' is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ToolRefused('INVALID_URL', `url must be http or https, got ${url.protocol}`);
  if (!hostAllowed(url, tool.allowedHosts))
    throw new ToolRefused('HOST_NOT_ALLOWED', `${url.host} is not an allowed host (${tool.allowedHosts.join(', ')})`);
  const request: HttpRequest = {
    method: String(args.method),
    url: url.toString(),
    headers: { ...tool.headers },
    timeoutMs: TOOL_HTTP_TIMEOUT_MS,
  };
  if (args.body !== undefined) {
    request.body = JSON.stringify(args.body);
    request.headers['content-type'] ??= 'application/json';
  }
  if (ctx.signal) request.signal = ctx.signal;
  const response = await ctx.http.request(request);
  return {
    status: response.status,
    headers: redactHeaders(response.headers),
    body: parsed(response.headers['content-type'], response.body),
  };
}

/**
 * The tool-call handler of one step: runs a call the model asked for and records it in
 * `journal`. Never throws for a refused or failed call: the error is the call's result (the model
 * reads it and may try otherwise); a cancelled or timed-out step still aborts through `ctx.signal`.
 * @returns the call's result as the model gets it: the output, or `{error: {code, message}}`;
 *   secrets masked either way.
 */
export function toolHandler(
  ctx: ActionContext,
  tools: PreparedTool[],
  journal: ToolCallRecord[],
  extra: ExtraTool[] = [],
): (call: AgentToolCall) => Promise<unknown> {
  const seen = new Map<string, number>();
  return async (call) => {
    const record: ToolCallRecord = { name: call.name, arguments: ctx.mask(call.arguments) };
    journal.push(record);
    try {
      const tool = tools.find((t) => TOOL_NAMES[t.type] === call.name);
      const other = tool ? undefined : extra.find((e) => e.definition.name === call.name);
      if (!tool && !other) throw new ToolRefused('UNKNOWN_TOOL', `no tool named '${call.name}'`);
      if (journal.length > MAX_TOOL_CALLS)
        throw new ToolRefused('TOO_MANY_TOOL_CALLS', `a step makes at most ${MAX_TOOL_CALLS} tool calls`);
      if (!tool) {
        // An MCP server's tool: the server checks the arguments against its own schema.
        if (call.arguments === null || typeof call.arguments !== 'object' || Array.isArray(call.arguments))
          throw new ToolRefused('INVALID_ARGUMENTS', 'arguments must be a JSON object');
        record.output = ctx.mask(await other!.run(call.arguments as Record<string, unknown>));
        return record.output;
      }
      const schema = argumentSchema(tool);
      if (!Value.Check(schema, call.arguments)) {
        const first = Value.Errors(schema, call.arguments).First();
        throw new ToolRefused('INVALID_ARGUMENTS', `arguments${first?.path.replace(/\//g, '.') ?? ''}: ${first?.message ?? 'invalid'}`);
      }
      record.output = ctx.mask(await run(ctx, tool, call.arguments as Record<string, unknown>, effectKey(call, seen)));
      return record.output;
    } catch (error) {
      if (ctx.signal?.aborted) throw error;
      const info = error instanceof ToolRefused ? { code: error.code, message: error.message } : classifyError(error);
      record.error = ctx.mask({ code: info.code, message: info.message });
      return { error: record.error };
    }
  };
}

/**
 * Runs an agent command whose model may call `tools` (at most `maxRounds` rounds of calls).
 * Output: the host's answer (`{text, conversationId, ...}`) with `toolCalls`, every call in order.
 * The prompt goes out with secrets masked, as without tools. With `mcpServers`, their tools are
 * offered too (`mcp-tools.ts`): the sessions are opened first and closed when the step ends.
 * @throws what the host throws; when calls were made before the failure, an {@link ActionError}
 *   of the same code and classification whose `details.toolCalls` lists them.
 */
export async function runAgentWithTools(
  ctx: ActionContext,
  p: { agentId: string; command: string; input: string },
  tools: PreparedTool[],
  maxRounds: number,
  mcpServers: PreparedMcpServer[] = [],
): Promise<unknown> {
  const definitions = toolDefinitions(tools);
  const mcp =
    mcpServers.length === 0
      ? undefined
      : await openMcpTools(
          ctx,
          mcpServers,
          definitions.map((d) => d.name),
        );
  try {
    return await runWithToolSet(ctx, p, tools, maxRounds, mcp?.tools ?? []);
  } finally {
    await mcp?.close();
  }
}

async function runWithToolSet(
  ctx: ActionContext,
  p: { agentId: string; command: string; input: string },
  tools: PreparedTool[],
  maxRounds: number,
  extra: ExtraTool[],
): Promise<unknown> {
  const journal: ToolCallRecord[] = [];
  const definitions = [...toolDefinitions(tools), ...extra.map((e) => e.definition)];
  const toolSet = { definitions, maxRounds, call: toolHandler(ctx, tools, journal, extra) };
  try {
    const out = await ctx.service.runAgentCommand(ctx.serviceContext, { ...p, input: ctx.mask(p.input), tools: toolSet });
    return { ...(out as Record<string, unknown>), toolCalls: journal };
  } catch (error) {
    if (journal.length === 0 || ctx.signal?.aborted) throw error;
    const info = classifyError(error);
    const details =
      info.details !== null && typeof info.details === 'object' ? { ...info.details, toolCalls: journal } : { toolCalls: journal };
    throw new ActionError(info.code, info.message, info.transient, {
      ...(info.status === undefined ? {} : { status: info.status }),
      details,
    });
  }
}
