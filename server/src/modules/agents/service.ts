import { likeClause, likeContains } from '../../platform/db/like';
import type { Actor } from '../../auth/tokens';
import { requireAgent, requireFolder } from '../../auth/access';
import { isoTime } from '../../platform/clock';
import { transaction, type Db } from '../../platform/db/connection';
import { sql } from '../../platform/db/statements';
import { badRequest, ServiceError } from '../../errors';
import { newId } from '../../platform/ids';
import type { Services } from '../../services';
import { pageWindow, type PageRequest } from '../../platform/paging';
import { agentTemplateData, type AgentTemplateType } from './templates';

/**
 * Agents (spec sections 2, 4.3 and 4.4; README "Agents, conversations, media and model providers"): create, generate from a
 * prompt, list, get, update (PATCH merges `data` key by key) and delete.
 */

/**
 * Allowed `data.tone` values: exactly the tones of the real service's public API, so that clients
 * generated from it can read every agent back (README "Agents").
 */
export const TONES = [
  'authoritative', 'clinical', 'cold', 'confident', 'cynical', 'emotional', 'empathetic', 'formal', 'friendly', 'humourous',
  'informal', 'ironic', 'optimistic', 'pessimistic', 'playful', 'sarcastic', 'serious', 'sympathetic', 'tentative', 'warm',
  'creative', 'inspiring', 'casual',
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
  commandId: 64,
  commandName: 100,
  prompt: 20000,
  emoji: 32,
  imageUrl: 2048,
  language: 35,
  inputPlaceholder: 200,
  /** Agent-generation prompt (`text`). */
  generationText: 4000,
} as const;

/** Command ids: 1..64 of letters, digits, `_` and `-` (generated ids are 22 base64url characters). */
export const COMMAND_ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
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
  tone?: Tone;
  avatar?: AgentAvatar;
  knowledgeEnabled?: boolean;
  language?: string;
  inputPlaceholder?: string;
}

/**
 * Body of `POST /folders/{folderId}/agents` (spec 4.3). With `data.type: 'template'` and
 * `data.template.type`, the agent starts from that built-in template (agent-templates.ts).
 */
export interface AgentCreateInput {
  name: string;
  data?: { type?: string; data?: AgentDataInput; template?: { type: AgentTemplateType } };
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
  };
}

interface AgentRow {
  id: string;
  folder_id: string;
  workspace_id: string;
  name: string;
  type: string;
  data_json: string;
  created_at: number;
  updated_at: number;
}

const AGENT_COLUMNS = 'id, folder_id, workspace_id, name, type, data_json, created_at, updated_at';

/** The knowledge of each agent in `agentIds` (one query): attached project and media ids, oldest first. */
function knowledgeOfAgents(db: Db, agentIds: readonly string[]): Map<string, Agent['knowledge']> {
  const byAgent = new Map<string, Agent['knowledge']>(agentIds.map((id) => [id, { projects: [], medias: [] }]));
  const rows = sql<[string], { agent_id: string; kind: 'project' | 'media'; ref_id: string }>(
    db,
    `SELECT agent_id, kind, ref_id FROM agent_knowledge
      WHERE agent_id IN (SELECT value FROM json_each(?)) ORDER BY added_at, rowid`,
  ).all(JSON.stringify(agentIds));
  for (const row of rows) {
    const knowledge = byAgent.get(row.agent_id)!;
    (row.kind === 'project' ? knowledge.projects : knowledge.medias).push(row.ref_id);
  }
  return byAgent;
}

/** The knowledge of an agent: attached project and media ids, oldest first. */
export function knowledgeOf(db: Db, agentId: string): Agent['knowledge'] {
  return knowledgeOfAgents(db, [agentId]).get(agentId)!;
}

/** The API items of agent rows, their knowledge loaded with one query. */
function toAgents(db: Db, rows: AgentRow[]): Agent[] {
  const knowledge = knowledgeOfAgents(db, rows.map((row) => row.id));
  return rows.map((row) => toAgent(row, knowledge.get(row.id)!));
}

function toAgent(row: AgentRow, knowledge: Agent['knowledge']): Agent {
  const data = { ...defaultAgentData(), ...(JSON.parse(row.data_json) as Partial<AgentData>) };
  data.tone = normalizeTone(data.tone);
  return {
    id: row.id,
    name: row.name,
    space_id: row.folder_id,
    type: row.type,
    data,
    knowledge,
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
  };
}

/** The stored row of an agent, or undefined. No access check: callers check first. */
function agentRow(db: Db, agentId: string): AgentRow | undefined {
  return sql<[string], AgentRow>(db, `SELECT ${AGENT_COLUMNS} FROM agents WHERE id = ?`).get(agentId);
}

/**
 * The API item of an agent the caller has already been checked against.
 * @throws ServiceError 404 when the agent no longer exists.
 */
export function agentItem(db: Db, agentId: string): Agent {
  const row = agentRow(db, agentId);
  if (!row) throw new ServiceError(404, 'NOT_FOUND', `agent '${agentId}' not found`);
  return toAgent(row, knowledgeOf(db, row.id));
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
      throw badRequest(`${field}[${i}].name`, 'duplicate', `${field}[${i}].name '${command.name}' is used by another command of this agent`);
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
    if (value.length > AGENT_LIMITS.emoji) throw badRequest(`${field}.data.value`, 'too_long', `${field}.data.value: an emoji avatar is at most ${AGENT_LIMITS.emoji} characters`);
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
 * the whole list; `avatar` replaces the whole avatar).
 * @param field body path of the AgentData object, for error details.
 */
function mergeAgentData(base: AgentData, input: AgentDataInput | undefined, field: string): AgentData {
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
  return next;
}

/** Inserts an agent row. Call inside a transaction after the access check. */
function insertAgent(
  svc: Services,
  actor: Actor,
  folder: { id: string; workspaceId: string },
  name: string,
  type: string,
  data: AgentData,
): Agent {
  const now = svc.clock.now();
  const id = newId();
  sql(
    svc.db,
    `INSERT INTO agents (id, workspace_id, folder_id, name, type, data_json, created_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(id, folder.workspaceId, folder.id, name, type, JSON.stringify(data), actor.userId, now, now);
  return agentItem(svc.db, id);
}

/**
 * Creates an agent in a folder (spec 4.3 `POST /folders/{folderId}/agents`). Needs Collaborator.
 * `input` has passed the route schema (types, lengths, enums); this adds defaults, command ids,
 * uniqueness of command ids/names and the avatar rules.
 * @throws ServiceError 404 (folder unknown or outside the caller's workspaces), 403, 400.
 */
export function createAgent(svc: Services, actor: Actor, folderId: string, input: AgentCreateInput): Agent {
  return transaction(svc.db, () => {
    const folder = requireFolder(svc.db, actor, folderId, 'Collaborator', 'creating an agent');
    const template = input.data?.template;
    if (template && input.data?.type !== TEMPLATE_AGENT_TYPE) {
      throw badRequest('data.type', 'invalid_value', `data.type must be '${TEMPLATE_AGENT_TYPE}' when data.template is given`);
    }
    if (!template && input.data?.type === TEMPLATE_AGENT_TYPE) {
      throw badRequest('data.template', 'required', `data.template is required when data.type is '${TEMPLATE_AGENT_TYPE}'`);
    }
    const preset = template ? mergeAgentData(defaultAgentData(), agentTemplateData(template.type), 'data.template') : defaultAgentData();
    const data = mergeAgentData(preset, input.data?.data, 'data.data');
    return insertAgent(svc, actor, folder, input.name, input.data?.type ?? DEFAULT_AGENT_TYPE, data);
  });
}

/**
 * The agents of a folder, newest first (spec 4.3 `GET /folders/{folderId}/agents`). Needs Viewer.
 * @param page 1-based page of `limit` items.
 * @throws ServiceError 404, 403.
 */
export function listAgents(svc: Services, actor: Actor, folderId: string, page: PageRequest, search?: string): Agent[] {
  requireFolder(svc.db, actor, folderId, 'Viewer');
  const named = search === undefined ? '' : `AND ${likeClause('name')}`;
  const rows = sql<unknown[], AgentRow>(
    svc.db,
    `SELECT ${AGENT_COLUMNS} FROM agents WHERE folder_id = ? ${named} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
  ).all(folderId, ...(search === undefined ? [] : [likeContains(search)]), ...pageWindow(page));
  return toAgents(svc.db, rows);
}

/**
 * One agent (spec 4.4 `GET /agents/{agentId}`). Needs Viewer.
 * @throws ServiceError 404 (unknown or outside the caller's workspaces).
 */
export function getAgent(svc: Services, actor: Actor, agentId: string): Agent {
  requireAgent(svc.db, actor, agentId, 'Viewer');
  return agentItem(svc.db, agentId);
}

/**
 * Updates an agent (spec 4.4 `PATCH /agents/{agentId}`). Needs Collaborator. `name` replaces the
 * name; `data` merges into AgentData key by key (`commands` replaces the whole list: commands
 * sent with their `id` keep it, commands without one get a new id). An empty patch changes nothing.
 * @throws ServiceError 404, 403, 400 (duplicate command id/name, bad avatar).
 */
export function updateAgent(svc: Services, actor: Actor, agentId: string, patch: AgentPatchInput): Agent {
  return transaction(svc.db, () => {
    requireAgent(svc.db, actor, agentId, 'Collaborator', 'updating an agent');
    const row = agentRow(svc.db, agentId)!;
    const current = toAgent(row, knowledgeOf(svc.db, row.id));
    if (patch.name === undefined && patch.data === undefined) return current;
    const data = mergeAgentData(current.data, patch.data, 'data');
    sql(svc.db, 'UPDATE agents SET name = ?, data_json = ?, updated_at = ? WHERE id = ?').run(
      patch.name ?? row.name,
      JSON.stringify(data),
      svc.clock.now(),
      agentId,
    );
    return agentItem(svc.db, agentId);
  });
}

/**
 * Deletes an agent with its knowledge links, public page and conversations
 * (spec 4.4 `DELETE /agents/{agentId}`). Needs Collaborator.
 * @throws ServiceError 404, 403.
 */
export function deleteAgent(svc: Services, actor: Actor, agentId: string): void {
  transaction(svc.db, () => {
    requireAgent(svc.db, actor, agentId, 'Collaborator', 'deleting an agent');
    sql(svc.db, 'DELETE FROM agents WHERE id = ?').run(agentId);
  });
}

// ---------------------------------------------------------------------------------------------
// Generation (spec 4.3 `POST /folders/{folderId}/agent-generate`)

/** The system prompt that asks a model to describe an agent as JSON. */
export const AGENT_GENERATION_PROMPT = [
  'You design AI agents for a workspace service. From the user\'s description, reply with one JSON object and nothing else, with these keys:',
  `"name": a short name (at most 60 characters);`,
  `"description": what the agent does (at most ${AGENT_LIMITS.description} characters);`,
  `"tone": one of ${TONES.join(', ')};`,
  '"language": the BCP 47 tag of the language the agent answers in (e.g. "en");',
  '"avatar": one emoji;',
  `"commands": 1 to 5 objects {"name": a short name, "prompt": instructions containing the placeholder {{ input }} where the user's input goes, "mode": "default" or "json"};`,
  '"knowledgeEnabled": true.',
].join('\n');

function oneLine(value: unknown, max: number): string {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim().slice(0, max).trim() : '';
}

/** The first sentence of `text` (up to `.`, `!`, `?` or a line break), at most 60 characters cut at a word. */
export function nameFromText(text: string): string {
  const sentence = oneLine(text.split(/[.!?\r\n]/)[0], 1000);
  let name = sentence;
  if (name.length > 60) {
    name = name.slice(0, 60);
    const space = name.lastIndexOf(' ');
    if (space > 20) name = name.slice(0, space);
  }
  name = name.trim();
  return name ? name[0]!.toUpperCase() + name.slice(1) : 'Agent';
}

/** Parses a model's answer as a JSON object, tolerating code fences and text around it. */
function parseModelJson(text: string): Record<string, unknown> | undefined {
  const attempts = [text.trim()];
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start >= 0 && end > start) attempts.push(text.slice(start, end + 1));
  for (const attempt of attempts) {
    try {
      const value = JSON.parse(attempt) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // try the next form
    }
  }
  return undefined;
}

/**
 * Turns a model's (untrusted) agent description into a name and valid AgentData: values of the
 * wrong type or outside the enums and limits fall back to the defaults, over-long strings are
 * cut, commands without a name or prompt and repeated names are dropped.
 */
export function agentFromModel(raw: Record<string, unknown>, text: string): { name: string; data: AgentData } {
  const data = defaultAgentData();
  const name = oneLine(raw.name, AGENT_LIMITS.name) || nameFromText(text);
  if (typeof raw.description === 'string') data.description = raw.description.trim().slice(0, AGENT_LIMITS.description);
  const tone = oneLine(raw.tone, 50).toLowerCase();
  if (ACCEPTED_TONES.includes(tone)) data.tone = normalizeTone(tone);
  const language = oneLine(raw.language, AGENT_LIMITS.language);
  if (new RegExp(LANGUAGE_PATTERN).test(language)) data.language = language;
  const avatar = typeof raw.avatar === 'object' && raw.avatar ? (raw.avatar as { data?: { value?: unknown } }).data?.value : raw.avatar;
  const emoji = oneLine(avatar, AGENT_LIMITS.emoji + 1);
  if (emoji && emoji.length <= AGENT_LIMITS.emoji && !/^https?:/i.test(emoji)) data.avatar = { type: 'emoji', data: { value: emoji } };
  if (typeof raw.knowledgeEnabled === 'boolean') data.knowledgeEnabled = raw.knowledgeEnabled;
  const names = new Set<string>();
  for (const entry of Array.isArray(raw.commands) ? raw.commands : []) {
    if (data.commands.length >= AGENT_LIMITS.commands || !entry || typeof entry !== 'object') continue;
    const command = entry as Record<string, unknown>;
    const commandName = oneLine(command.name, AGENT_LIMITS.commandName);
    const prompt = typeof command.prompt === 'string' ? command.prompt.trim().slice(0, AGENT_LIMITS.prompt) : '';
    if (!commandName || !prompt || names.has(commandName.toLowerCase())) continue;
    names.add(commandName.toLowerCase());
    const mode = (COMMAND_MODES as readonly unknown[]).includes(command.mode) ? (command.mode as CommandMode) : 'default';
    data.commands.push({ id: newId(), name: commandName, prompt, mode });
  }
  return { name, data };
}

/**
 * Generates an agent from a prompt through the model provider and creates it in the folder
 * (spec 4.3 `POST /folders/{folderId}/agent-generate`). Needs Collaborator (checked before the
 * model is called, and again when the agent is written).
 * @param text the description, 1..{@link AGENT_LIMITS.generationText} characters.
 * @throws ServiceError 404, 403, 400 (text), 502 UPSTREAM_ERROR (provider failure or an answer
 *   that is not a JSON object).
 */
export async function generateAgent(svc: Services, actor: Actor, folderId: string, text: string): Promise<Agent> {
  requireFolder(svc.db, actor, folderId, 'Collaborator', 'generating an agent');
  if (!text.trim()) throw badRequest('text', 'too_short', 'text must contain a description');
  if (text.length > AGENT_LIMITS.generationText) throw badRequest('text', 'too_long', `text is at most ${AGENT_LIMITS.generationText} characters`);
  const answer = await svc.models.complete(
    [
      { role: 'system', content: AGENT_GENERATION_PROMPT },
      { role: 'user', content: text },
    ],
    { purpose: 'agent-generation', json: true },
  );
  const raw = parseModelJson(answer.text);
  if (!raw) throw new ServiceError(502, 'UPSTREAM_ERROR', 'the model did not answer with a JSON object describing the agent');
  const { name, data } = agentFromModel(raw, text);
  return transaction(svc.db, () => {
    const folder = requireFolder(svc.db, actor, folderId, 'Collaborator', 'generating an agent');
    return insertAgent(svc, actor, folder, name, DEFAULT_AGENT_TYPE, data);
  });
}
