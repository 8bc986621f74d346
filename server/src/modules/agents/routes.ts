import type { FastifyPluginAsync } from 'fastify';
import {
  AGENT_LIMITS,
  AVATAR_TYPES,
  COMMAND_MODES,
  LANGUAGE_PATTERN,
  ACCEPTED_TONES,
  type AgentCreateInput,
  type AgentPatchInput,
} from './agent-data';
import { createAgent, deleteAgent, generateAgent, getAgent, listAgents, updateAgent } from './service';
import { addKnowledge, removeKnowledge } from './knowledge';
import { AGENT_TEMPLATE_TYPES } from './templates';
import {
  NO_LINE_BREAKS,
  itemEnvelope,
  itemsEnvelope,
  okOnly,
  params,
  searchablePageQuery,
  responses,
  singleLine,
  type PageQuery,
} from '../../http/schemas';

const command = {
  type: 'object',
  required: ['name', 'prompt'],
  additionalProperties: false,
  properties: {
    id: {
      type: 'string',
      minLength: 1,
      maxLength: AGENT_LIMITS.commandId,
      description: 'Any non-empty string (generated when absent); unique within the agent',
    },
    name: singleLine(AGENT_LIMITS.commandName),
    prompt: { type: 'string', minLength: 1, maxLength: AGENT_LIMITS.prompt },
    mode: { type: 'string', enum: COMMAND_MODES },
  },
} as const;

const avatar = {
  type: 'object',
  required: ['type', 'data'],
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: AVATAR_TYPES },
    data: {
      type: 'object',
      required: ['value'],
      additionalProperties: false,
      properties: { value: singleLine(AGENT_LIMITS.imageUrl) },
    },
  },
} as const;

/** AgentData as written by clients: every key optional (README "Agents, conversations, media and model providers" lists defaults). */
const agentDataInput = {
  type: 'object',
  additionalProperties: false,
  properties: {
    commands: { type: 'array', maxItems: AGENT_LIMITS.commands, items: command },
    description: { type: 'string', maxLength: AGENT_LIMITS.description },
    tone: {
      type: 'string',
      enum: ACCEPTED_TONES,
      description: 'One of the 23 tones; neutral and professional are accepted and mapped (README "Agents")',
    },
    avatar,
    knowledgeEnabled: { type: 'boolean' },
    language: { type: 'string', maxLength: AGENT_LIMITS.language, pattern: LANGUAGE_PATTERN },
    inputPlaceholder: { type: 'string', maxLength: AGENT_LIMITS.inputPlaceholder, pattern: NO_LINE_BREAKS },
  },
} as const;

const str = { type: 'string' } as const;

/** The agent item (README "Agents, conversations, media and model providers", "Agents"). */
export const agentSchema = {
  type: 'object',
  required: ['id', 'name', 'space_id', 'type', 'data', 'knowledge', 'createdAt', 'updatedAt'],
  properties: {
    id: str,
    name: str,
    space_id: str,
    type: str,
    data: {
      type: 'object',
      properties: {
        commands: {
          type: 'array',
          items: { type: 'object', properties: { id: str, name: str, prompt: str, mode: str } },
        },
        description: str,
        tone: str,
        avatar: { type: 'object', properties: { type: str, data: { type: 'object', properties: { value: str } } } },
        knowledgeEnabled: { type: 'boolean' },
        language: str,
        inputPlaceholder: str,
      },
    },
    knowledge: {
      type: 'object',
      properties: { projects: { type: 'array', items: str }, medias: { type: 'array', items: str } },
    },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
} as const;

const one = responses(itemEnvelope(agentSchema));
const upstream = { 502: { $ref: 'ErrorEnvelope#' } };
const tags = ['agents'];

/**
 * Agent routes (spec 4.3 agents and agent-generate, 4.4), with the public-access and
 * conversation sub-plugins. Handlers are thin: domain functions check access and write.
 */
export const agentsRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;

  app.post<{ Params: { folderId: string }; Body: AgentCreateInput }>(
    '/folders/:folderId/agents',
    {
      schema: {
        tags,
        summary: 'Create an agent',
        params: params('folderId'),
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: {
            name: singleLine(AGENT_LIMITS.name),
            data: {
              type: 'object',
              additionalProperties: false,
              properties: {
                type: singleLine(AGENT_LIMITS.type),
                data: agentDataInput,
                template: {
                  type: 'object',
                  required: ['type'],
                  additionalProperties: false,
                  description: "A built-in template to start from (with type: 'template'); avatar replaces the template's",
                  properties: { type: { type: 'string', enum: AGENT_TEMPLATE_TYPES }, avatar },
                },
              },
            },
          },
        },
        response: one,
      },
    },
    async (request) => ({ ok: true, item: await svc.store.run(createAgent(svc, request.actor, request.params.folderId, request.body)) }),
  );

  app.get<{ Params: { folderId: string }; Querystring: PageQuery & { search?: string } }>(
    '/folders/:folderId/agents',
    {
      schema: {
        tags,
        summary: "A folder's agents, newest first; `search` filters by name (case-insensitive substring)",
        params: params('folderId'),
        querystring: searchablePageQuery(20),
        response: responses(itemsEnvelope(agentSchema)),
      },
    },
    async (request) => {
      const { search, ...page } = request.query;
      return { ok: true, items: await svc.store.run(listAgents(svc, request.actor, request.params.folderId, page, search)) };
    },
  );

  app.post<{ Params: { folderId: string }; Body: { text: string } }>(
    '/folders/:folderId/agent-generate',
    {
      schema: {
        tags,
        summary: 'Generate an agent from a description through the model provider',
        params: params('folderId'),
        body: {
          type: 'object',
          required: ['text'],
          additionalProperties: false,
          properties: { text: { type: 'string', minLength: 1, maxLength: AGENT_LIMITS.generationText } },
        },
        response: responses(itemEnvelope(agentSchema), upstream),
      },
    },
    async (request) => ({ ok: true, item: await generateAgent(svc, request.actor, request.params.folderId, request.body.text) }),
  );

  app.get<{ Params: { agentId: string } }>(
    '/agents/:agentId',
    { schema: { tags, summary: 'Get an agent', params: params('agentId'), response: one } },
    async (request) => ({ ok: true, item: await svc.store.run(getAgent(svc, request.actor, request.params.agentId)) }),
  );

  app.patch<{ Params: { agentId: string }; Body: AgentPatchInput }>(
    '/agents/:agentId',
    {
      schema: {
        tags,
        summary: 'Update an agent (data merges key by key; commands replace the list)',
        params: params('agentId'),
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { name: singleLine(AGENT_LIMITS.name), data: agentDataInput },
        },
        response: one,
      },
    },
    async (request) => ({
      ok: true,
      item: await svc.store.run(updateAgent(svc, request.actor, request.params.agentId, request.body ?? {})),
    }),
  );

  app.delete<{ Params: { agentId: string } }>(
    '/agents/:agentId',
    { schema: { tags, summary: 'Delete an agent', params: params('agentId'), response: responses(okOnly) } },
    async (request) => {
      await svc.store.run(deleteAgent(svc, request.actor, request.params.agentId));
      return { ok: true };
    },
  );

  for (const kind of ['project', 'media'] as const) {
    const key = kind === 'project' ? 'projectId' : 'mediaId';
    app.post<{ Params: { agentId: string }; Body: Record<string, string> }>(
      `/agents/:agentId/knowledge/${kind}`,
      {
        schema: {
          tags,
          summary: `Attach a ${kind} to an agent's knowledge`,
          params: params('agentId'),
          body: { type: 'object', required: [key], additionalProperties: false, properties: { [key]: { type: 'string', minLength: 1 } } },
          response: one,
        },
      },
      async (request) => ({
        ok: true,
        item: await svc.store.run(addKnowledge(svc, request.actor, request.params.agentId, kind, request.body[key]!)),
      }),
    );
    app.delete<{ Params: Record<string, string> }>(
      `/agents/:agentId/knowledge/${kind}/:${key}`,
      {
        schema: {
          tags,
          summary: `Detach a ${kind} from an agent's knowledge`,
          params: params('agentId', key),
          response: responses(okOnly),
        },
      },
      async (request) => {
        await svc.store.run(removeKnowledge(svc, request.actor, request.params.agentId!, kind, request.params[key]!));
        return { ok: true };
      },
    );
  }
};
