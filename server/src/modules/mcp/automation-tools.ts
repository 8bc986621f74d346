import { Type } from '@sinclair/typebox';
import type { AutomationRecord, McpInputSchema, McpTrigger } from '@taskspace/engine';
import type { Actor } from '../../auth/tokens';
import { scopeAllows } from '../../auth/scopes';
import type { Services } from '../../services';
import type { AutomationRuntime } from '../engine-host/runtime';
import { automationsWhere } from '../engine-host/automation-queries';
import { callAutomationTool } from '../inbound/assistant-call';
import type { ToolResult } from './invoke';
import { inputProblem } from './tool-input';
import type { ObjectSchema, ToolHints } from './tools';

/**
 * Automations as MCP tools (docs/mcp.md "Automations as tools"): every enabled automation whose
 * trigger is `mcp`, in a workspace where the caller is a Participant or above (who may edit
 * tasks), is the tool `automation_<toolName>`. A credential needs the `write` scope to see or call
 * them. A call starts a run through the inbound intake (`inbound/assistant-call.ts`) and answers
 * with the `respond` step's output, or with the run id.
 */

/** The prefix of every automation tool's name: no tool derived from a REST route starts with it. */
export const AUTOMATION_TOOL_PREFIX = 'automation_';

/** The roles that may call an automation's tool ("write access": Participant and above). */
const CALLER_ROLES = "('Participant', 'Collaborator', 'Owner')";

/** One automation offered as a tool. */
export interface AutomationTool {
  name: string;
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  annotations: ToolHints;
  automation: AutomationRecord;
}

/** `text` as snake_case (letters and digits, `_` between), a letter first, at most 48 characters; '' when nothing is left. */
export function snakeCase(text: string): string {
  const words = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+|_+$/g, '');
  return words.slice(0, 48).replace(/_+$/, '');
}

/** The tool name an automation asks for: its trigger's `toolName`, else its name as snake_case, else its id. */
function wantedName(automation: AutomationRecord): string {
  const trigger = automation.definition.trigger as McpTrigger;
  return trigger.toolName ?? (snakeCase(automation.definition.name ?? '') || `id_${snakeCase(automation.id) || 'tool'}`);
}

/** The tool of one automation under `name`. */
function toolOf(automation: AutomationRecord, name: string): AutomationTool {
  const trigger = automation.definition.trigger as McpTrigger;
  const title = automation.definition.name ?? name;
  // No declared input: a tool that takes no arguments.
  const input: McpInputSchema = trigger.inputSchema ?? (Type.Object({}) as McpInputSchema);
  return {
    name,
    title,
    description:
      `${trigger.description.replace(/\s+$/, '')} ` +
      `(Runs the Taskspace automation "${title}" as you; answers with what its respond step returns, else with the id of the run it started.)`,
    inputSchema: JSON.parse(JSON.stringify(input)) as ObjectSchema,
    annotations: { title, readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    automation,
  };
}

/**
 * The automation tools `actor` may call, by name: none without the `write` scope. Names are
 * `automation_<toolName>`; two automations asking for one name (in two workspaces, or by their
 * names) get `_2`, `_3`… in the order they were created, so a name means the same automation on
 * every request.
 */
export async function automationTools(svc: Services, actor: Actor): Promise<Map<string, AutomationTool>> {
  const tools = new Map<string, AutomationTool>();
  if (actor.scopes && !scopeAllows(actor.scopes, 'write')) return tools;
  const automations = await svc.store.run(
    automationsWhere(
      svc.store.sql,
      `a.trigger_type = 'mcp' AND a.enabled = 1 AND a.workspace_id IN
         (SELECT m.workspace_id FROM workspace_members m WHERE m.user_id = ? AND m.role IN ${CALLER_ROLES})
       ORDER BY a.created_at, a.id`,
      [actor.userId],
    ),
  );
  for (const automation of automations) {
    const base = AUTOMATION_TOOL_PREFIX + wantedName(automation);
    let name = base;
    for (let n = 2; tools.has(name); n++) name = `${base}_${n}`;
    tools.set(name, toolOf(automation, name));
  }
  return tools;
}

/** A JSON value as a tool result's text. */
const textOf = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * Calls an automation tool with `args`: an input that does not fit its schema is a tool error
 * (nothing runs); otherwise the run's `respond` output (`structuredContent`: the body when it is
 * an object, else `{result: body}`; a 4xx/5xx status marks it an error), or `{runId, status}`.
 */
export async function callAutomation(
  svc: Services,
  rt: AutomationRuntime,
  tool: AutomationTool,
  args: Record<string, unknown>,
  abort: AbortSignal,
): Promise<ToolResult> {
  const problem = inputProblem(tool.inputSchema, args);
  if (problem) return { isError: true, content: [{ type: 'text', text: `invalid arguments: ${problem}` }] };
  // A property left out takes its declared `default`.
  const given: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
    const fallback = (property as { default?: unknown }).default;
    if (fallback !== undefined) given[name] = fallback;
  }
  Object.assign(given, args);
  const called = await callAutomationTool(svc, rt, tool.automation, given, abort);
  if (called.filtered) {
    const structured = { filtered: true, requestId: called.requestId };
    return {
      content: [{ type: 'text', text: "The automation's trigger filter refused this call: no run started." }],
      structuredContent: structured,
    };
  }
  if (called.response) {
    const { body, status } = called.response;
    const structured =
      body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : { result: body };
    return { content: [{ type: 'text', text: textOf(body) }], structuredContent: structured, ...(status >= 400 ? { isError: true } : {}) };
  }
  const structured = { runId: called.runId, status: called.respond ? 'running' : 'started' };
  const text = called.respond
    ? `The run ${called.runId} has not responded yet; it goes on (see the automation's runs).`
    : `Started the run ${called.runId} of "${tool.title}".`;
  return { content: [{ type: 'text', text }], structuredContent: structured };
}
