import { Type } from '@sinclair/typebox';

/**
 * Input schemas of conversations, written once with TypeBox: `POST /api/v1/agents/{agentId}/convos`
 * validates and documents its body with {@link commandRunBody}, and `runAgentCommand` checks the
 * same schema for calls that do not come through the route (the automation engine's agent
 * command action), so both refuse an input with the same `{field, reason}`.
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

/** Body of running an agent command: the command's id or name, and the text for `{{ input }}`. */
export const commandRunBody = Type.Object(
  {
    command: Type.String({ minLength: 1, maxLength: COMMAND_RUN_LIMITS.command }),
    input: Type.Optional(Type.String({ maxLength: COMMAND_RUN_LIMITS.input })),
  },
  { additionalProperties: false },
);
