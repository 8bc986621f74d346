/**
 * `agent.command`: the agent's command (by id or name) with `input` rendered from the variables,
 * answered by the host's model provider and recorded as a conversation of the agent. The output
 * is what the host returns (the server: `{text, conversationId, conversation}`), with `toolCalls`
 * when the step lists `tools` the model may call (`agent-tools.ts`) or `mcpServers` whose tools it
 * may call (`mcp-tools.ts`).
 */
import { Type } from '@sinclair/typebox';
import { requiredString } from '../../params';
import {
  AgentToolsSchema,
  DEFAULT_MAX_TOOL_ROUNDS,
  journalTools,
  MaxToolRoundsSchema,
  prepareTools,
  repeatedTool,
  runAgentWithTools,
  type PreparedTool,
} from './agent-tools';
import { agentMcpServers, journalMcpServers, McpServersSchema, prepareMcpServers, type PreparedMcpServer } from './mcp-tools';
import type { ActionKind } from '../../executor';
import { defineAction } from '../../kind';
import { Ref, Template } from '../../parts';
import type { ActionOf } from '../../kind';

const parameters = Type.Object({
  agentId: Ref('agent', { title: 'Agent' }),
  command: Ref('agentCommand', { title: 'Command', description: "The command's id or name." }),
  input: Type.Optional(Template({ title: 'Input', description: "Text rendered into the command's prompt." })),
  tools: Type.Optional(AgentToolsSchema),
  mcpServers: Type.Optional(McpServersSchema),
  maxToolRounds: Type.Optional(MaxToolRoundsSchema),
});

/** Runs an agent's command through the model provider; the answer is the output. */
export type AgentCommandAction = ActionOf<'agent.command', typeof parameters>;

/** Parameters of one agent command call. */
export interface AgentParams {
  agentId: string;
  command: string;
  input: string;
  /** The tools the model may call, the author's templates rendered. */
  tools?: PreparedTool[];
  /** The MCP servers whose tools the model may call, the author's templates rendered. */
  mcpServers?: PreparedMcpServer[];
  /** Rounds of tool calls allowed (with `tools` or `mcpServers`). */
  maxToolRounds?: number;
}

/** Renders the call and hands it to the host. */
export const AGENT_ACTION: ActionKind<AgentCommandAction, AgentParams> = {
  prepare: (a, s, t) => {
    const p: AgentParams = {
      agentId: requiredString(t, a.agentId, s, 'agentId'),
      command: requiredString(t, a.command, s, 'command'),
      input: a.input === undefined ? '' : t.render(a.input, s, 'input'),
    };
    if (a.tools || a.mcpServers) {
      p.tools = a.tools ? prepareTools(a.tools, s, t) : [];
      if (a.mcpServers) p.mcpServers = prepareMcpServers(a.mcpServers, s, t);
      p.maxToolRounds = a.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
    }
    return p;
  },
  // Tool headers and MCP bearer tokens may hold credentials: journalled redacted.
  journalInput: (p) => ({
    ...p,
    ...(p.tools ? { tools: journalTools(p.tools) } : {}),
    ...(p.mcpServers ? { mcpServers: journalMcpServers(p.mcpServers) } : {}),
  }),
  // The prompt is stored as the agent's conversation, readable by every member: the model gets
  // `[secret NAME]` where the input held a secret, never the value.
  // The agent's own MCP servers (its settings) come after the step's; one the step names by URL too is the step's.
  execute: async (ctx, { tools, mcpServers, maxToolRounds, ...p }) => {
    const servers = [...(mcpServers ?? []), ...(await agentMcpServers(ctx, p.agentId, mcpServers ?? []))];
    return tools || servers.length > 0
      ? runAgentWithTools(ctx, p, tools ?? [], maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS, servers)
      : ctx.service.runAgentCommand(ctx.serviceContext, { ...p, input: ctx.mask(p.input) });
  },
};

/** The `agent.command` kind. */
export const AGENT_COMMAND_KIND = defineAction({
  type: 'agent.command',
  title: 'Ask an agent',
  summary: "Runs one of an agent's commands through the model provider.",
  category: 'AI',
  icon: 'bot',
  sideEffects: true,
  timeout: true,
  parameters,
  output: Type.Object(
    {
      text: Type.String(),
      conversationId: Type.String(),
      toolCalls: Type.Optional(
        Type.Array(
          Type.Object({
            name: Type.String(),
            arguments: Type.Unknown(),
            output: Type.Optional(Type.Unknown()),
            error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
          }),
          {
            description: 'With tools: every call the model made, in order.',
          },
        ),
      ),
    },
    { title: 'Answer' },
  ),
  executor: AGENT_ACTION,
  check(action, path) {
    const repeated = repeatedTool((action.tools as { type: string }[] | undefined) ?? []);
    if (repeated < 0) return [];
    const at = `${path.reduce<string>((acc, s) => (typeof s === 'number' ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '')}.tools[${repeated}]`;
    return [{ path: at, reason: 'duplicate', message: `${at}: each tool type may be listed once` }];
  },
});

declare module '../../../definition/types' {
  /** This module's kinds (see {@link ActionTypes}). */
  interface ActionTypes {
    agentCommand: AgentCommandAction;
  }
}
