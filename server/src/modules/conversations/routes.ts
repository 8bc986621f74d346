import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { failInterruptedConversations, getConversation, listConversations, runAgentCommand } from './service';
import { streamAnswer, wantsEventStream } from './stream';
import {
  agentParams,
  answeredResponses,
  answerStreamDescription,
  commandRunBody,
  conversationParams,
  conversationResponses,
  conversationsQuery,
  conversationsResponses,
} from './schemas';

const tags = ['agents'];

/**
 * Conversations (spec 4.4 `GET /agents/{agentId}/convos/`, `.../convos/{convoId}`) and running a
 * command (`POST /agents/{agentId}/convos`, ours; streamed with `Accept: text/event-stream`, stream.ts). The list and the run answer with and without
 * the trailing slash the spec writes. When the server leads (platform/leadership.ts), at
 * registration or at a take-over, conversations a previous process left `in_progress` are marked `failed`.
 */
export const conversationRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
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
    app.get(
      path,
      {
        schema: {
          tags,
          hide,
          summary: "An agent's conversations, newest first",
          params: agentParams,
          querystring: conversationsQuery,
          response: conversationsResponses,
        },
      },
      async (request) => ({
        ok: true,
        items: await svc.store.run(listConversations(svc, request.actor, request.params.agentId, request.query)),
      }),
    );

    app.post(
      path,
      {
        schema: {
          tags,
          hide,
          summary: 'Run an agent command through the model provider and record the conversation',
          description: answerStreamDescription,
          params: agentParams,
          body: commandRunBody,
          response: answeredResponses,
        },
      },
      async (request, reply) => {
        const { agentId } = request.params;
        if (wantsEventStream(request))
          return streamAnswer(request, reply, (live) => runAgentCommand(svc, request.actor, agentId, request.body, undefined, live));
        return { ok: true, item: await runAgentCommand(svc, request.actor, agentId, request.body) };
      },
    );
  }

  app.get(
    '/agents/:agentId/convos/:convoId',
    {
      schema: {
        tags,
        summary: 'Get a conversation',
        params: conversationParams,
        response: conversationResponses,
      },
    },
    async (request) => ({
      ok: true,
      item: await svc.store.run(getConversation(svc, request.actor, request.params.agentId, request.params.convoId)),
    }),
  );
};
