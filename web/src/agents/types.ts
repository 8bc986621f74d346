/** An agent command (docs "API", "Agents"). */
export interface Command {
  id?: string;
  name: string;
  prompt: string;
  mode: string;
}

/** The agent item as the API returns it. */
export interface Agent {
  id: string;
  name: string;
  space_id: string;
  data: {
    commands: Command[];
    description: string;
    tone: string;
    avatar: { type: string; data: { value: string } };
    knowledgeEnabled: boolean;
    language: string;
  };
  knowledge: { projects: string[]; medias: string[] };
}

/** A conversation: one command run and the model's answer. */
export interface Conversation {
  id: string;
  title: string;
  status: string;
  data: { messages: { role: string; content: string }[] };
  createdAt: string;
}

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
] as const;

/** Command modes: a plain answer, planned answers, or one JSON object (for automations). */
export const MODES = [
  ['default', 'Plain answer'],
  ['plan-and-execute-v1', 'Plan, then answer (v1)'],
  ['plan-and-execute-v2', 'Plan, then answer (v2)'],
  ['json', 'One JSON object'],
] as const;

/** Roles that may create and edit agents, and run their commands (docs "API", "Roles"). */
export const EDITORS = new Set(['Collaborator', 'Owner']);
export const RUNNERS = new Set(['Participant', 'Collaborator', 'Owner']);
