import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { requireAgent } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import { conflict, notFound, ServiceError } from '../../errors';
import type { ChatMessage } from '../../models/provider';
import type { Services } from '../../services';
import { agentItem } from '../agents/records';
import { answeredResponses, answerStreamDescription, conversationParams, followUpBody } from './schemas';
import { conversationRow, systemMessage, toConversation } from './service';
import { streamAnswer, wantsEventStream, type AnswerStream } from './stream';

/** Messages a conversation may hold; a follow-up beyond is refused (409). */
export const MAX_CONVERSATION_MESSAGES = 200;

/**
 * Sends a follow-up message in a conversation (Participant): the model answers with the whole
 * conversation as context (the agent's system message, then every message so far), and the
 * message and the answer are appended. A conversation still answering is refused; when the
 * provider fails the conversation is marked `failed` (the messages so far stay) and 502 is thrown.
 * With `live` the answer streams (stream.ts; see `runAgentCommand`); what is stored is the same.
 * @returns the conversation with the two new messages.
 * @throws ServiceError 404 (agent or conversation unknown), 403, 409 CONFLICT (still answering, or
 *   {@link MAX_CONVERSATION_MESSAGES} reached), 502 UPSTREAM_ERROR.
 */
export async function sendFollowUp(svc: Services, actor: Actor, agentId: string, convoId: string, text: string, live?: AnswerStream) {
  const { store, models } = svc;
  const begun = await store.run(
    store.sql.transaction(function* (tx) {
      yield* requireAgent(tx, actor, agentId, 'Participant', 'sending a message to an agent');
      const row = yield* conversationRow(tx, agentId, convoId);
      if (!row) throw notFound('conversation', convoId);
      if (row.status === 'in_progress') throw conflict('the agent is still answering in this conversation');
      const history = JSON.parse(row.messages_json) as ChatMessage[];
      if (history.length + 2 > MAX_CONVERSATION_MESSAGES)
        throw conflict(`a conversation holds at most ${MAX_CONVERSATION_MESSAGES} messages: start a new one`);
      const agent = yield* agentItem(tx, agentId);
      const system = yield* systemMessage(
        svc,
        agent,
        { name: 'chat', prompt: '', mode: 'default' } as Parameters<typeof systemMessage>[2],
        tx,
      );
      const next = [...history, { role: 'user' as const, content: text }];
      yield* tx.run("UPDATE conversations SET status = 'in_progress', messages_json = ?, updated_at = ? WHERE id = ?", [
        JSON.stringify(next),
        svc.clock.now(),
        convoId,
      ]);
      return { messages: [{ role: 'system' as const, content: system }, ...next], row: yield* conversationRow(tx, agentId, convoId) };
    }),
  );
  const messages = begun.messages;
  if (live) live.started(toConversation(begun.row!));
  let answer;
  try {
    answer = await models.complete(messages, {
      purpose: 'agent-command',
      json: false,
      ...(live ? { onText: live.text, signal: live.signal } : {}),
    });
  } catch (error) {
    await store.run(
      store.sql.transaction(function* (tx) {
        yield* tx.run("UPDATE conversations SET status = 'failed', updated_at = ? WHERE id = ?", [svc.clock.now(), convoId]);
      }),
    );
    if (error instanceof ServiceError) throw error;
    throw new ServiceError(502, 'UPSTREAM_ERROR', `the model provider failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const history = [...messages.slice(1), { role: 'assistant' as const, content: answer.text }];
  return store.run(
    store.sql.transaction(function* (tx) {
      const updated = yield* tx.run(
        "UPDATE conversations SET status = 'completed', llm_name = ?, messages_json = ?, updated_at = ? WHERE id = ?",
        [answer.model, JSON.stringify(history), svc.clock.now(), convoId],
      );
      if (updated.changes === 0) throw notFound('conversation', convoId);
      return toConversation((yield* conversationRow(tx, agentId, convoId))!);
    }),
  );
}

/** `POST /agents/{agentId}/convos/{convoId}/messages`: {@link sendFollowUp}; with `Accept: text/event-stream`, streamed (stream.ts). */
export const followUpRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  app.post(
    '/agents/:agentId/convos/:convoId/messages',
    {
      schema: {
        tags: ['agents'],
        summary: 'Send a follow-up message in a conversation; the model answers with the conversation so far as context',
        description: answerStreamDescription,
        params: conversationParams,
        body: followUpBody,
        response: answeredResponses,
      },
    },
    async (request, reply) => {
      const { agentId, convoId } = request.params;
      if (wantsEventStream(request))
        return streamAnswer(request, reply, (live) => sendFollowUp(svc, request.actor, agentId, convoId, request.body.text, live));
      return { ok: true, item: await sendFollowUp(svc, request.actor, agentId, convoId, request.body.text) };
    },
  );
};
