import {
  ACCEPTED_TONES,
  AGENT_LIMITS,
  COMMAND_MODES,
  defaultAgentData,
  LANGUAGE_PATTERN,
  normalizeTone,
  TONES,
  type AgentData,
  type CommandMode,
} from './agent-data';
import { newId } from '../../platform/ids';

/** Generation (spec 4.3 `POST /folders/{folderId}/agent-generate`): the prompt, and reading the model's untrusted answer. */

/** The system prompt that asks a model to describe an agent as JSON. */
export const AGENT_GENERATION_PROMPT = [
  "You design AI agents for a workspace service. From the user's description, reply with one JSON object and nothing else, with these keys:",
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
export function parseModelJson(text: string): Record<string, unknown> | undefined {
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
