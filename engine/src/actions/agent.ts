/**
 * Run an agent command: the agent's command (by id or name) with `input` rendered from the
 * variables, answered by the host's model provider and recorded as a conversation of the agent.
 * The output is what the host returns (the server: `{text, conversationId, ...}`).
 */
import type { AgentCommandAction } from '../definition';
import { requiredString } from './params';
import type { ActionKind } from './types';

/** Parameters of one agent command call. */
export interface AgentParams {
  agentId: string;
  command: string;
  input: string;
}

/** The `agent.command` kind. */
export const AGENT_ACTION: ActionKind<AgentCommandAction, AgentParams> = {
  prepare: (a, s, t) => ({
    agentId: requiredString(t, a.agentId, s, 'agentId'),
    command: requiredString(t, a.command, s, 'command'),
    input: a.input === undefined ? '' : t.render(a.input, s, 'input'),
  }),
  // The prompt is stored as the agent's conversation, readable by every member: the model gets
  // `[secret NAME]` where the input held a secret, never the value.
  execute: (ctx, p) => ctx.service.runAgentCommand(ctx.serviceContext, { ...p, input: ctx.mask(p.input) }),
};
