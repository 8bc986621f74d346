import type { FastifyInstance } from 'fastify';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  McpError,
  ErrorCode,
} from '@modelcontextprotocol/sdk/types.js';
import { scopeAllows } from '../../auth/scopes';
import { getJson, invokeTool, type ToolCaller } from './invoke';
import { listProjectResources, PROJECT_URI_TEMPLATE, readProjectResource } from './resources';
import type { ToolSpec } from './tools';
import type { Actor } from '../../auth/tokens';
import type { Services } from '../../services';
import type { AutomationRuntime } from '../engine-host/runtime';
import { AUTOMATION_TOOL_PREFIX, automationTools, callAutomation } from './automation-tools';
import { commandPrompts, PROMPT_ARGUMENTS, promptText } from './prompts';

/** What the server tells a model about itself (MCP `InitializeResult.instructions`). */
const INSTRUCTIONS =
  'Taskspace: workspaces hold folders; folders hold projects, agents, media and automations; projects hold tasks (an outline). ' +
  'Start with list_workspaces, then list_workspace_folders and list_folder_projects (or list_my_projects); ids come from those answers. ' +
  'Lists are paged as the REST API pages them. Every call acts as the signed-in person, with their role in each workspace. ' +
  "Tools named automation_… run one of the workspace's automations and answer with its result; prompts are the agents' commands.";

/** Whether a tool's summary marks it as needing the Owner role (`Owners: …`, `(Owner)`). */
function ownerOnly(tool: ToolSpec): boolean {
  const summary = tool.route.schema.summary ?? '';
  return summary.startsWith('Owners:') || summary.includes('(Owner)');
}

/** What one `/mcp` request's server answers for: the app, its services and automation runtime. */
export interface McpHost {
  app: FastifyInstance;
  svc: Services;
  rt: AutomationRuntime;
}

/**
 * One MCP server for one `/mcp` request (stateless: no session, nothing kept between requests),
 * answering with the tools `actor` may call: those its scopes allow, without Owner-only tools
 * when the person is Owner of no workspace, then the automations it may call as tools
 * (`automation-tools.ts`). Roles are checked again by every call, per workspace. Prompts are the
 * commands of the agents it can read (`prompts.ts`).
 */
export function createMcpServer(
  host: McpHost,
  tools: ReadonlyMap<string, ToolSpec>,
  actor: Actor,
  caller: ToolCaller,
  version: string,
): Server {
  const { app, svc, rt } = host;
  const server = new Server(
    { name: 'taskspace', title: 'Taskspace', version },
    {
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } },
      instructions: INSTRUCTIONS,
    },
  );
  const allowed = (tool: ToolSpec) => !actor.scopes || scopeAllows(actor.scopes, tool.scope);

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const workspaces = await getJson<{ items: { role: string }[] }>(app, '/api/v1/workspaces', caller);
    const owner = (workspaces?.items ?? []).some((workspace) => workspace.role === 'Owner');
    const automations = [...(await automationTools(svc, actor)).values()].map(({ automation: _automation, ...tool }) => tool);
    return {
      tools: [
        ...[...tools.values()]
          .filter((tool) => allowed(tool) && (owner || !ownerOnly(tool)))
          .map((tool) => ({
            name: tool.name,
            title: tool.annotations.title,
            description: tool.description,
            inputSchema: tool.inputSchema,
            ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
            annotations: tool.annotations,
          })),
        ...automations,
      ],
    };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    if (name.startsWith(AUTOMATION_TOOL_PREFIX)) {
      const tool = (await automationTools(svc, actor)).get(name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${name}`);
      return callAutomation(svc, rt, tool, request.params.arguments ?? {}, extra.signal);
    }
    const tool = tools.get(name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${name}`);
    return invokeTool(app, tool, request.params.arguments ?? {}, caller);
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [...(await commandPrompts(svc, actor)).values()].map((prompt) => ({
      name: prompt.name,
      title: prompt.title,
      description: prompt.description,
      arguments: PROMPT_ARGUMENTS,
    })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const prompt = (await commandPrompts(svc, actor)).get(request.params.name);
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `unknown prompt: ${request.params.name}`);
    return {
      description: prompt.description,
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: promptText(prompt, request.params.arguments?.input) } }],
    };
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listProjectResources(app, caller) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: PROJECT_URI_TEMPLATE,
        name: 'project',
        title: 'A Taskspace project',
        description: 'A project as markdown: its name as a heading and its tasks as a nested checklist, in document order',
        mimeType: 'text/markdown',
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const text = await readProjectResource(app, request.params.uri, caller);
    if (text === undefined) throw new McpError(ErrorCode.InvalidParams, `resource not found: ${request.params.uri}`);
    return { contents: [{ uri: request.params.uri, mimeType: 'text/markdown', text }] };
  });
  return server;
}
