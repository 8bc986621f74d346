import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createAgent, deleteAgent, generateAgent, getAgent, listAgents, updateAgent } from './service';
import { addKnowledge, removeKnowledge } from './knowledge';
import { Params } from '../../http/schemas';
import {
  CreateAgentBody,
  GenerateAgentBody,
  PatchAgentBody,
  agentListQuery,
  agentParams,
  agentResponses,
  agentsResponses,
  folderParams,
  generateResponses,
  knowledgeBody,
  okResponses,
} from './schemas';

const tags = ['agents'];

/**
 * Agent routes (spec 4.3 agents and agent-generate, 4.4), with the public-access and
 * conversation sub-plugins. Handlers are thin: domain functions check access and write.
 */
export const agentsRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;

  app.post(
    '/folders/:folderId/agents',
    {
      schema: {
        tags,
        summary: 'Create an agent',
        params: folderParams,
        body: CreateAgentBody,
        response: agentResponses,
      },
    },
    async (request) => ({ ok: true, item: await svc.store.run(createAgent(svc, request.actor, request.params.folderId, request.body)) }),
  );

  app.get(
    '/folders/:folderId/agents',
    {
      schema: {
        tags,
        summary: "A folder's agents, newest first; `search` filters by name (case-insensitive substring)",
        params: folderParams,
        querystring: agentListQuery,
        response: agentsResponses,
      },
    },
    async (request) => {
      const { search, ...page } = request.query;
      return { ok: true, items: await svc.store.run(listAgents(svc, request.actor, request.params.folderId, page, search)) };
    },
  );

  app.post(
    '/folders/:folderId/agent-generate',
    {
      schema: {
        tags,
        summary: 'Generate an agent from a description through the model provider',
        params: folderParams,
        body: GenerateAgentBody,
        response: generateResponses,
      },
    },
    async (request) => ({ ok: true, item: await generateAgent(svc, request.actor, request.params.folderId, request.body.text) }),
  );

  app.get(
    '/agents/:agentId',
    { schema: { tags, summary: 'Get an agent', params: agentParams, response: agentResponses } },
    async (request) => ({ ok: true, item: await svc.store.run(getAgent(svc, request.actor, request.params.agentId)) }),
  );

  app.patch(
    '/agents/:agentId',
    {
      schema: {
        tags,
        summary: 'Update an agent (data merges key by key; commands replace the list)',
        params: agentParams,
        body: PatchAgentBody,
        response: agentResponses,
      },
    },
    async (request) => ({
      ok: true,
      item: await svc.store.run(updateAgent(svc, request.actor, request.params.agentId, request.body ?? {})),
    }),
  );

  app.delete(
    '/agents/:agentId',
    { schema: { tags, summary: 'Delete an agent', params: agentParams, response: okResponses } },
    async (request) => {
      await svc.store.run(deleteAgent(svc, request.actor, request.params.agentId));
      return { ok: true };
    },
  );

  for (const kind of ['project', 'media'] as const) {
    const key = kind === 'project' ? 'projectId' : 'mediaId';
    app.post(
      `/agents/:agentId/knowledge/${kind}`,
      {
        schema: {
          tags,
          summary: `Attach a ${kind} to an agent's knowledge`,
          params: agentParams,
          body: knowledgeBody(key),
          response: agentResponses,
        },
      },
      async (request) => ({
        ok: true,
        item: await svc.store.run(addKnowledge(svc, request.actor, request.params.agentId, kind, request.body[key])),
      }),
    );
    app.delete(
      `/agents/:agentId/knowledge/${kind}/:${key}`,
      {
        schema: {
          tags,
          summary: `Detach a ${kind} from an agent's knowledge`,
          params: Params('agentId', key),
          response: okResponses,
        },
      },
      async (request) => {
        await svc.store.run(removeKnowledge(svc, request.actor, request.params.agentId, kind, request.params[key]));
        return { ok: true };
      },
    );
  }
};
