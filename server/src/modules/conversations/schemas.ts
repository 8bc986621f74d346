import { Type } from '@sinclair/typebox';
import { ErrorRef, ItemEnvelope, ItemsEnvelope, PageQuerySchema, Params, Responses, stringEnum } from '../../http/schemas';
import { LLM_NAMES, LLM_TYPES } from './llm';

/**
 * Schemas of conversations, written once with TypeBox: `POST /api/v1/agents/{agentId}/convos`
 * validates and documents its body with {@link commandRunBody}, and `runAgentCommand` checks the
 * same schema for calls that do not come through the route (the automation engine's agent
 * command action), so both refuse an input with the same `{field, reason}`. The responses are
 * exact: what the routes return is what {@link ConversationSchema} says.
 */

/** Limits of a command run, in characters. */
export const COMMAND_RUN_LIMITS = {
  /** `command`: a command id or name. */
  command: 200,
  /** `input`. */
  input: 20000,
  /** Knowledge text put into the system message. */
  knowledge: 20000,
  /** Conversation title. */
  title: 120,
} as const;

/**
 * Conversation statuses as the API reports them (the real service's values): `in_progress` while
 * the model answers, `idle` once answered, `requires_review` when the run failed (the provider
 * errored, timed out or the process stopped mid-answer) and a person should look at it.
 */
export const CONVERSATION_STATUSES = ['in_progress', 'idle', 'requires_review'] as const;
/** One of {@link CONVERSATION_STATUSES}. */
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

/** Body of running an agent command: the command's id or name, and the text for `{{ input }}`. */
export const commandRunBody = Type.Object(
  {
    command: Type.String({ minLength: 1, maxLength: COMMAND_RUN_LIMITS.command }),
    input: Type.Optional(Type.String({ maxLength: COMMAND_RUN_LIMITS.input })),
  },
  { additionalProperties: false },
);

/** Body of `POST /agents/{agentId}/convos/{convoId}/messages`: the follow-up message (1..20000 characters). */
export const followUpBody = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: COMMAND_RUN_LIMITS.input }) },
  { additionalProperties: false },
);

/** `data.llm` of a conversation (see `reportedLlm`). */
const LlmSchema = Type.Object(
  {
    type: stringEnum(LLM_TYPES),
    name: stringEnum(LLM_NAMES, {
      description:
        'The listed model nearest to the one that answered (openai-type names with type openai, anthropic/… names with type anthropic)',
    }),
    model: Type.String({ description: 'The exact model name the provider reported (ours)' }),
  },
  { additionalProperties: false },
);

/** One message of a conversation: the rendered prompt (`user`) or an answer (`assistant`). */
const MessageSchema = Type.Object(
  { role: stringEnum(['system', 'user', 'assistant'] as const), content: Type.String() },
  { additionalProperties: false },
);

/** The conversation item (README "Running a command and conversations"). Timestamps are ISO 8601. */
export const ConversationSchema = Type.Object(
  {
    id: Type.String(),
    space_agent_id: Type.String({ description: "The agent's id" }),
    title: Type.String(),
    status: stringEnum(CONVERSATION_STATUSES),
    data: Type.Object({ llm: LlmSchema, messages: Type.Array(MessageSchema) }, { additionalProperties: false }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

/** Path of an agent's conversation list and command runs. */
export const agentParams = Params('agentId');
/** Path of one conversation. */
export const conversationParams = Params('agentId', 'convoId');
/** Query of the conversation list (20 a page by default). */
export const conversationsQuery = PageQuerySchema(20);

/** Responses of the conversation list. */
export const conversationsResponses = Responses(ItemsEnvelope(ConversationSchema));
/** Responses of one conversation. */
export const conversationResponses = Responses(ItemEnvelope(ConversationSchema));
/**
 * An event of a streamed answer (`Accept: text/event-stream`, docs "API", "Streamed answers"):
 * on the wire `event: <event>` and `data: <data as one line of JSON>`, then a blank line.
 */
export const AnswerStreamEventSchema = Type.Union(
  [
    Type.Object(
      { event: Type.Literal('start'), data: Type.Object({ item: ConversationSchema }, { additionalProperties: false }) },
      { additionalProperties: false, description: 'First: the conversation recorded in_progress, with the new user message' },
    ),
    Type.Object(
      { event: Type.Literal('delta'), data: Type.Object({ text: Type.String() }, { additionalProperties: false }) },
      { additionalProperties: false, description: "A piece of the answer's text, in order" },
    ),
    Type.Object(
      { event: Type.Literal('done'), data: ItemEnvelope(ConversationSchema) },
      { additionalProperties: false, description: 'Last on success: the stored conversation, as the JSON answer' },
    ),
    Type.Object(
      { event: Type.Literal('error'), data: ErrorRef },
      {
        additionalProperties: false,
        description: 'Last on failure: the error envelope (e.g. 502 UPSTREAM_ERROR); no part of the answer is stored',
      },
    ),
  ],
  { description: 'One server-sent event: `event: <event>` then `data: <data as JSON>`' },
);

/** The route description of the two answering routes: how to ask for the stream. */
export const answerStreamDescription =
  'Answers `{ok, item}` once the model has answered. With `Accept: text/event-stream` the answer streams instead: ' +
  'checks fail as usual (status and JSON error envelope); then 200 and the events `start` `{item}`, `delta` `{text}`…, ' +
  'and `done` `{ok, item}` or `error` (the error envelope). Closing the stream cancels the model call.';

/**
 * Responses of a command run or a follow-up: the conversation (JSON) or the event stream
 * ({@link AnswerStreamEventSchema}); 502 when the model provider fails (JSON answer).
 */
export const answeredResponses = {
  ...Responses(ItemEnvelope(ConversationSchema), { 502: ErrorRef }),
  200: {
    description: 'The answered conversation, or the event stream of the answer',
    content: {
      'application/json': { schema: ItemEnvelope(ConversationSchema) },
      'text/event-stream': { schema: AnswerStreamEventSchema },
    },
  },
};
