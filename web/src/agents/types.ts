import type { paths } from '../api/schema';

/** The agent item as the API returns it (every AgentData field present; docs "API", "Agents"). */
export type Agent = paths['/api/v1/agents/{agentId}']['get']['responses'][200]['content']['application/json']['item'];

/** One of the 23 tones (docs "API", "AgentData"). */
export type Tone = Agent['data']['tone'];

/** An agent command as the form edits it: a new one has no id until it is saved. */
export type Command = Omit<Agent['data']['commands'][number], 'id'> & { id?: string };

/** A conversation: one command run and the model's answer (as the API documents it). */
export type Conversation =
  paths['/api/v1/agents/{agentId}/convos/{convoId}']['get']['responses'][200]['content']['application/json']['item'];

/** The 23 tones an agent may take (docs "API", "AgentData"). */
export const TONES = [
  'authoritative',
  'clinical',
  'cold',
  'confident',
  'cynical',
  'emotional',
  'empathetic',
  'formal',
  'friendly',
  'humourous',
  'informal',
  'ironic',
  'optimistic',
  'pessimistic',
  'playful',
  'sarcastic',
  'serious',
  'sympathetic',
  'tentative',
  'warm',
  'creative',
  'inspiring',
  'casual',
] as const satisfies readonly Tone[];

/** Command modes: a plain answer, planned answers, or one JSON object (for automations). */
export const MODES = [
  ['default', 'Plain answer'],
  ['plan-and-execute-v1', 'Plan, then answer (v1)'],
  ['plan-and-execute-v2', 'Plan, then answer (v2)'],
  ['json', 'One JSON object'],
] as const satisfies readonly (readonly [Command['mode'], string])[];

/** The id of the agent page's visible reason its settings are read-only (fieldsets point at it with `aria-describedby`). */
export const AGENT_READ_ONLY_REASON = 'agent-read-only-reason';

/** The option of `options` equal to a `<select>`'s value (typed as that option), or undefined. */
export function optionOf<T extends string>(options: readonly T[], value: string): T | undefined {
  return options.find((option) => option === value);
}
