import type { FastifyPluginAsync } from 'fastify';
import {
  CONVERSATION_STATUSES,
  LLM_NAMES,
  LLM_TYPES,
  failInterruptedConversations,
  getConversation,
  listConversations,
  runAgentCommand,
  type CommandRun,
} from './service';
import { commandRunBody } from './schemas';
import { itemEnvelope, itemsEnvelope, pageQuery, params, responses, type PageQuery } from '../../http/schemas';

const str = { type: 'string' } as const;

/** The conversation item (README "Running a command and conversations"). */
export const conversationSchema = {
  type: 'object',
  required: ['id', 'space_agent_id', 'title', 'status', 'data', 'createdAt', 'updatedAt'],
  properties: {
    id: str,
    space_agent_id: str,
    title: str,
    status: { type: 'string', enum: CONVERSATION_STATUSES },
    data: {
      type: 'object',
      properties: {
        llm: {
          type: 'object',
          required: ['type', 'name', 'model'],
          properties: {
            type: { type: 'string', enum: LLM_TYPES },
            name: {
              type: 'string',
              enum: LLM_NAMES,
              description:
                'The listed model nearest to the one that answered (openai-type names with type openai, anthropic/… names with type anthropic)',
            },
            model: { type: 'string', description: 'The exact model name the provider reported (ours)' },
          },
        },
        messages: { type: 'array', items: { type: 'object', properties: { role: str, content: str } } },
      },
    },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
} as const;

const tags = ['agents'];

/**
 * Conversations (spec 4.4 `GET /agents/{agentId}/convos/`, `.../convos/{convoId}`) and running a
 * command (`POST /agents/{agentId}/convos`, ours). The list and the run answer with and without
 * the trailing slash the spec writes. When the server leads (platform/leadership.ts), at
 * registration or at a take-over, conversations a previous process left `in_progress` are marked `failed`.
 */
export const conversationRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;
  // Other processes' commands may be in progress: only the leader marks what a previous process
  // left, at its start or when it takes the lead over.
  if (svc.leadership.leading) await svc.store.run(failInterruptedConversations(svc));
  else {
    svc.leadership.whenLeading(() => {
      svc.store
        .run(failInterruptedConversations(svc))
        .catch((error: unknown) => app.log.error({ err: error }, 'marking interrupted conversations failed'));
    });
  }

  for (const path of ['/agents/:agentId/convos', '/agents/:agentId/convos/']) {
    const hide = path.endsWith('/');
    // With the router's ignoreTrailingSlash on, the first path already answers the second.
    if (hide && app.hasRoute({ method: 'GET', url: app.prefix + path })) continue;
    app.get<{ Params: { agentId: string }; Querystring: PageQuery }>(
      path,
      {
        schema: {
          tags,
          hide,
          summary: "An agent's conversations, newest first",
          params: params('agentId'),
          querystring: pageQuery(20),
          response: responses(itemsEnvelope(conversationSchema)),
        },
      },
      async (request) => ({
        ok: true,
        items: await svc.store.run(listConversations(svc, request.actor, request.params.agentId, request.query)),
      }),
    );

    app.post<{ Params: { agentId: string }; Body: CommandRun }>(
      path,
      {
        schema: {
          tags,
          hide,
          summary: 'Run an agent command through the model provider and record the conversation',
          params: params('agentId'),
          body: commandRunBody,
          response: responses(itemEnvelope(conversationSchema), { 502: { $ref: 'ErrorEnvelope#' } }),
        },
      },
      async (request) => ({ ok: true, item: await runAgentCommand(svc, request.actor, request.params.agentId, request.body) }),
    );
  }

  app.get<{ Params: { agentId: string; convoId: string } }>(
    '/agents/:agentId/convos/:convoId',
    {
      schema: {
        tags,
        summary: 'Get a conversation',
        params: params('agentId', 'convoId'),
        response: responses(itemEnvelope(conversationSchema)),
      },
    },
    async (request) => ({
      ok: true,
      item: await svc.store.run(getConversation(svc, request.actor, request.params.agentId, request.params.convoId)),
    }),
  );
};
