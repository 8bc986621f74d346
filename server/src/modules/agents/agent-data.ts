import type { AgentMcpServer } from '@taskspace/engine';
import { badRequest } from '../../errors';
import { newId } from '../../platform/ids';
import type { AgentTemplateType } from './template-types';

/**
 * AgentData (README "Agents"): tones, command modes, avatars and limits, the input shapes, the
 * defaults, and how a body's data is checked and merged into an agent's.
 */

/**
 * Allowed `data.tone` values: exactly the tones of the real service's public API, so that clients
 * generated from it can read every agent back (README "Agents").
 */
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
/** One of {@link TONES}. */
export type Tone = (typeof TONES)[number];

/**
 * Tones we documented before that are not in {@link TONES}, and the tone each now means. They
 * are still accepted on input and stored agents holding them are returned with the mapped tone.
 */
export const LEGACY_TONES: Readonly<Record<string, Tone>> = { neutral: 'friendly', professional: 'formal' };

/**
 * The tone of a new agent: `friendly`, the general-purpose assistant voice (the old default
 * `neutral` is not a tone those clients accept, and `neutral` agents read back as `friendly`).
 */
export const DEFAULT_TONE: Tone = 'friendly';

/** Every tone a body may carry: {@link TONES} plus the keys of {@link LEGACY_TONES}. */
export const ACCEPTED_TONES: readonly string[] = [...TONES, ...Object.keys(LEGACY_TONES)];

/** `tone` as one of {@link TONES}: legacy tones mapped, anything unknown as {@link DEFAULT_TONE}. */
export function normalizeTone(tone: unknown): Tone {
  if ((TONES as readonly unknown[]).includes(tone)) return tone as Tone;
  return (typeof tone === 'string' && LEGACY_TONES[tone]) || DEFAULT_TONE;
}

/**
 * Allowed command `mode` values: `default` answers in plain text; `plan-and-execute-v1` and
 * `plan-and-execute-v2` (the real service's planning modes) answer in plain text after the model
 * is told to plan the steps first and then carry them out; `json` (ours) asks the model for one
 * JSON object (OpenAI `response_format: json_object`), for automations that parse the answer.
 */
export const COMMAND_MODES = ['default', 'plan-and-execute-v1', 'plan-and-execute-v2', 'json'] as const;
/** One of {@link COMMAND_MODES}. */
export type CommandMode = (typeof COMMAND_MODES)[number];

/** Allowed avatar types: `emoji` (value: the emoji) and `image` (value: an absolute http(s) URL). */
export const AVATAR_TYPES = ['emoji', 'image'] as const;
/** One of {@link AVATAR_TYPES}. */
export type AvatarType = (typeof AVATAR_TYPES)[number];

/** Size limits of agent fields, in characters (counts: commands per agent). */
export const AGENT_LIMITS = {
  name: 200,
  type: 50,
  description: 2000,
  commands: 50,
  /** Command ids: any non-empty string up to this length (the length a command run's `command` takes). */
  commandId: 200,
  commandName: 100,
  prompt: 20000,
  emoji: 32,
  imageUrl: 2048,
  language: 35,
  inputPlaceholder: 200,
  /** Agent-generation prompt (`text`). */
  generationText: 4000,
} as const;

/** `data.language`: a BCP 47-style tag such as `en`, `fr` or `pt-BR`. */
export const LANGUAGE_PATTERN = '^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$';

/** An agent command. */
export interface AgentCommand {
  id: string;
  name: string;
  /** The prompt template; `{{ input }}` and `{{ agent.name }}`-style placeholders are filled when run. */
  prompt: string;
  mode: CommandMode;
}

/** An agent's avatar. */
export interface AgentAvatar {
  type: AvatarType;
  data: { value: string };
}

/** AgentData (spec section 2) with every field present. */
export interface AgentData {
  commands: AgentCommand[];
  description: string;
  tone: Tone;
  avatar: AgentAvatar;
  knowledgeEnabled: boolean;
  language: string;
  /** The hint shown in the agent's input box (single line, at most {@link AGENT_LIMITS.inputPlaceholder}). */
  inputPlaceholder: string;
  /** The agent's own MCP servers, offered by its `agent.command` steps (mcp-settings.ts); tokens are secret references. */
  mcpServers: AgentMcpServer[];
}

/** An agent as the API returns it. Timestamps are ISO 8601. */
export interface Agent {
  id: string;
  name: string;
  /** The folder (space) holding the agent. */
  space_id: string;
  type: string;
  data: AgentData;
  /** Ids of the projects and media attached as knowledge, oldest attachment first. */
  knowledge: { projects: string[]; medias: string[] };
  /**
   * Whether public access is on (the agent has a public page at `GET /agents/{id}/public-agent`,
   * which answers 404 while it is off). Read-only: `PUT`/`DELETE /agents/{id}/publicAccess` change it.
   */
  publicAccess: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A command as written by a client; `id` is generated when absent, `mode` defaults to `default`. */
export interface CommandInput {
  id?: string;
  name: string;
  prompt: string;
  mode?: CommandMode;
}

/** AgentData as written by a client: every field optional. */
export interface AgentDataInput {
  commands?: CommandInput[];
  description?: string;
  /** One of {@link ACCEPTED_TONES}; legacy tones are mapped ({@link normalizeTone}). */
  tone?: string;
  avatar?: AgentAvatar;
  knowledgeEnabled?: boolean;
  language?: string;
  inputPlaceholder?: string;
  /** Replaces the list; checked by `checkAgentMcpServers` (mcp-settings.ts). */
  mcpServers?: AgentMcpServer[];
}

/**
 * Body of `POST /folders/{folderId}/agents` (spec 4.3). With `data.type: 'template'` and
 * `data.template.type`, the agent starts from that built-in template (agent-templates.ts).
 */
export interface AgentCreateInput {
  name: string;
  data?: { type?: string; data?: AgentDataInput; template?: { type: AgentTemplateType; avatar?: AgentAvatar } };
}

/** Body of `PATCH /agents/{agentId}` (spec 4.4). */
export interface AgentPatchInput {
  name?: string;
  data?: AgentDataInput;
}

/** The agent `type` used when a create body gives none, and for generated agents. */
export const DEFAULT_AGENT_TYPE = 'agent';
/** The `data.type` of a create body that starts from a built-in template (`data.template.type`). */
export const TEMPLATE_AGENT_TYPE = 'template';

/** Values of absent AgentData fields. */
export function defaultAgentData(): AgentData {
  return {
    commands: [],
    description: '',
    tone: DEFAULT_TONE,
    avatar: { type: 'emoji', data: { value: '🤖' } },
    knowledgeEnabled: true,
    language: 'en',
    inputPlaceholder: '',
    mcpServers: [],
  };
}

/**
 * Gives every command an id (generated when absent) and a mode, and enforces unique ids and
 * unique names (compared trimmed and case-insensitively) within the agent.
 * @param field the body path of the list, for error details (e.g. `data.commands`).
 * @throws ServiceError 400 VALIDATION_ERROR reason `duplicate`.
 */
function normalizeCommands(list: CommandInput[], field: string): AgentCommand[] {
  const ids = new Set<string>();
  const names = new Set<string>();
  return list.map((command, i) => {
    const id = command.id ?? newId();
    if (ids.has(id)) throw badRequest(`${field}[${i}].id`, 'duplicate', `${field}[${i}].id '${id}' is used by another command`);
    ids.add(id);
    const key = command.name.trim().toLowerCase();
    if (names.has(key)) {
      throw badRequest(
        `${field}[${i}].name`,
        'duplicate',
        `${field}[${i}].name '${command.name}' is used by another command of this agent`,
      );
    }
    names.add(key);
    return { id, name: command.name, prompt: command.prompt, mode: command.mode ?? 'default' };
  });
}

/**
 * Checks what a schema cannot: an image avatar's value is an absolute http(s) URL, an emoji
 * fits {@link AGENT_LIMITS.emoji}.
 */
function checkAvatar(avatar: AgentAvatar, field: string): void {
  const value = avatar.data.value;
  if (avatar.type === 'emoji') {
    if (value.length > AGENT_LIMITS.emoji)
      throw badRequest(
        `${field}.data.value`,
        'too_long',
        `${field}.data.value: an emoji avatar is at most ${AGENT_LIMITS.emoji} characters`,
      );
    return;
  }
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw badRequest(`${field}.data.value`, 'invalid_format', `${field}.data.value must be an absolute http(s) URL for an image avatar`);
  }
}

/**
 * Applies `input` over `base` key by key (absent keys keep their value; `commands` replaces
 * the whole list, `avatar` the whole avatar, `mcpServers` the whole list: the caller checks
 * those with `checkAgentMcpServers`).
 * @param field body path of the AgentData object, for error details.
 */
export function mergeAgentData(base: AgentData, input: AgentDataInput | undefined, field: string): AgentData {
  if (!input) return base;
  const next: AgentData = { ...base };
  if (input.commands !== undefined) next.commands = normalizeCommands(input.commands, `${field}.commands`);
  if (input.description !== undefined) next.description = input.description;
  if (input.tone !== undefined) next.tone = normalizeTone(input.tone);
  if (input.avatar !== undefined) {
    checkAvatar(input.avatar, `${field}.avatar`);
    next.avatar = { type: input.avatar.type, data: { value: input.avatar.data.value } };
  }
  if (input.knowledgeEnabled !== undefined) next.knowledgeEnabled = input.knowledgeEnabled;
  if (input.language !== undefined) next.language = input.language;
  if (input.inputPlaceholder !== undefined) next.inputPlaceholder = input.inputPlaceholder;
  if (input.mcpServers !== undefined) next.mcpServers = input.mcpServers;
  return next;
}
