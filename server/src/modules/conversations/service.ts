import type { Dialect, Query, Sql } from '../../platform/db/query';
import type { Actor } from '../../auth/tokens';
import { requireAgent } from '../../auth/access';
import { notFound, ServiceError } from '../../errors';
import { newId } from '../../platform/ids';
import type { ChatMessage } from '../../models/provider';
import { completeWithTools, type ToolRun } from '../../models/tools';
import type { Services } from '../../services';
import { pageWindow } from '../../platform/paging';
import { mediaContents } from '../media/contents';
import type { Agent, AgentCommand } from '../agents/agent-data';
import { agentItem } from '../agents/records';
import { mediaForKnowledge } from '../media/service';
import { COMMAND_RUN_LIMITS, commandRunBody, type ConversationStatus } from './schemas';
import { reportedLlm, type ReportedLlm } from './llm';
import type { AnswerStream } from './stream';

/**
 * Conversations (spec 4.4 `GET /agents/{agentId}/convos[/{convoId}]`) and running an agent
 * command (`POST /agents/{agentId}/convos`, ours; README "Agents, conversations, media and model providers"), which records
 * one conversation per run. The automation engine runs commands through {@link runAgentCommand}.
 */

export { CONVERSATION_STATUSES, type ConversationStatus } from './schemas';

/** The status stored in the `conversations` table (unchanged since 001). */
type StoredConversationStatus = 'in_progress' | 'completed' | 'failed';

/** The API status of a stored status: `completed` → `idle`, `failed` → `requires_review`. */
const API_STATUS: Readonly<Record<StoredConversationStatus, ConversationStatus>> = {
  in_progress: 'in_progress',
  completed: 'idle',
  failed: 'requires_review',
};

export { LLM_NAMES, LLM_TYPES, reportedLlm } from './llm';

export { COMMAND_RUN_LIMITS } from './schemas';

/** A conversation as the API returns it. Timestamps are ISO 8601. */
export interface Conversation {
  id: string;
  /** The agent's id. */
  space_agent_id: string;
  title: string;
  status: ConversationStatus;
  data: {
    /**
     * `type` and `name` from the real service's list, the nearest to the model that answered
     * (see {@link reportedLlm}); `model` (ours) is the exact model name the provider reported.
     */
    llm: ReportedLlm;
    /** The rendered command prompt (`user`) and, once answered, the answer (`assistant`). */
    messages: { role: ChatMessage['role']; content: string }[];
  };
  createdAt: string;
  updatedAt: string;
}

/** A row of the conversations table. */
export interface ConversationRow {
  id: string;
  agent_id: string;
  title: string;
  status: StoredConversationStatus;
  llm_type: string;
  llm_name: string;
  messages_json: string;
  created_at: number;
  updated_at: number;
}

const CONVERSATION_COLUMNS = 'id, agent_id, title, status, llm_type, llm_name, messages_json, created_at, updated_at';

/** A stored conversation as the API shows it. */
export function toConversation(row: ConversationRow): Conversation {
  return {
    id: row.id,
    space_agent_id: row.agent_id,
    title: row.title,
    status: API_STATUS[row.status],
    data: { llm: reportedLlm(row.llm_type, row.llm_name), messages: JSON.parse(row.messages_json) as Conversation['data']['messages'] },
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** The conversation `convoId` of agent `agentId`, or undefined. */
export function conversationRow(q: Sql, agentId: string, convoId: string): Query<ConversationRow | undefined> {
  return q.get<ConversationRow>(`SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE id = ? AND agent_id = ?`, [convoId, agentId]);
}

/**
 * The order of {@link listConversations}, newest first. Conversations started in the same
 * millisecond come newest first by insertion on SQLite (`rowid`); PostgreSQL rows have no
 * insertion order, so the id breaks such ties there.
 */
const NEWEST_FIRST: Readonly<Record<Dialect, string>> = {
  sqlite: 'ORDER BY created_at DESC, rowid DESC',
  postgres: 'ORDER BY created_at DESC, id DESC',
};

/**
 * An agent's conversations, newest first (spec 4.4 `GET /agents/{agentId}/convos/`). Needs Viewer.
 * @throws ServiceError 404, 403.
 */
export function* listConversations(
  svc: Services,
  actor: Actor,
  agentId: string,
  page: { limit: number; page: number },
  q: Sql = svc.store.sql,
): Query<Conversation[]> {
  yield* requireAgent(q, actor, agentId, 'Viewer');
  const rows = yield* q.all<ConversationRow>(
    `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE agent_id = ? ${NEWEST_FIRST[q.dialect]} LIMIT ? OFFSET ?`,
    [agentId, ...pageWindow(page)],
  );
  return rows.map(toConversation);
}

/**
 * One conversation of an agent (spec 4.4 `GET /agents/{agentId}/convos/{convoId}`). Needs Viewer.
 * @throws ServiceError 404 (agent unknown/outside the caller's workspaces, or no such conversation of that agent).
 */
export function* getConversation(
  svc: Services,
  actor: Actor,
  agentId: string,
  convoId: string,
  q: Sql = svc.store.sql,
): Query<Conversation> {
  yield* requireAgent(q, actor, agentId, 'Viewer');
  const row = yield* conversationRow(q, agentId, convoId);
  if (!row) throw notFound('conversation', convoId);
  return toConversation(row);
}

/**
 * The command named by `ref`: the command with that id, else the one with that name (trimmed,
 * case-insensitive).
 */
export function findCommand(agent: Agent, ref: string): AgentCommand | undefined {
  const key = ref.trim().toLowerCase();
  return agent.data.commands.find((c) => c.id === ref) ?? agent.data.commands.find((c) => c.name.trim().toLowerCase() === key);
}

/** The placeholders a command prompt may use, with their values. */
function placeholders(agent: Agent, input: string): Record<string, string> {
  return {
    input,
    'agent.name': agent.name,
    'agent.description': agent.data.description,
    'agent.tone': agent.data.tone,
    'agent.language': agent.data.language,
  };
}

/**
 * Renders a command prompt: each `{{ input }}`, `{{ agent.name }}`, `{{ agent.description }}`,
 * `{{ agent.tone }}` and `{{ agent.language }}` (spaces inside the braces optional) is replaced by
 * its value in one pass (values are not rendered again); other `{{ ... }}` stay as written. Each
 * placeholder may also be written with square brackets, `[[input]]`, which tools that evaluate
 * `{{ … }}` themselves (the n8n editor) leave alone. When the prompt has no input placeholder
 * and the input is not empty, the input is appended after a blank line.
 */
export function renderPrompt(agent: Agent, prompt: string, input: string): string {
  const values = placeholders(agent, input);
  let usedInput = false;
  const rendered = prompt.replace(
    /\{\{\s*([a-z.]+)\s*\}\}|\[\[\s*([a-z.]+)\s*\]\]/g,
    (whole, braced: string | undefined, bracketed: string | undefined) => {
      const name = braced ?? bracketed ?? '';
      if (!(name in values)) return whole;
      if (name === 'input') usedInput = true;
      return values[name]!;
    },
  );
  return !usedInput && input ? `${rendered}\n\n${input}` : rendered;
}

/** Appends `text` to `parts` within `budget` characters; returns the budget left. */
function take(parts: string[], text: string, budget: number): number {
  if (budget <= 0) return 0;
  parts.push(text.length > budget ? `${text.slice(0, budget)}…` : text);
  return budget - Math.min(text.length, budget);
}

/** Tasks read per query for the knowledge text: a large project is read a page at a time. */
const KNOWLEDGE_TASK_PAGE = 250;

/**
 * The knowledge text of an agent (when `knowledgeEnabled`): each project as its name and its
 * tasks in document order (two spaces of indent per level, `[x]` for completed ones), then each
 * media item as its name and kind, with the content of `text` media; at most
 * {@link COMMAND_RUN_LIMITS.knowledge} characters in all.
 */
export function* knowledgeText(svc: Services, agent: Agent, q: Sql = svc.store.sql): Query<string> {
  if (!agent.data.knowledgeEnabled) return '';
  const parts: string[] = [];
  let budget: number = COMMAND_RUN_LIMITS.knowledge;
  for (const projectId of agent.knowledge.projects) {
    const project = yield* q.get<{ name: string }>('SELECT name FROM projects WHERE id = ?', [projectId]);
    if (!project) continue;
    // Tasks are read only until the budget is spent, however large the project: in pages of
    // KNOWLEDGE_TASK_PAGE, each starting after the last path of the one before (the
    // (project_id, path) index; every path sorts above '').
    const lines = [`## Project: ${project.name}`];
    let length = lines[0]!.length;
    let after = '';
    for (;;) {
      const tasks = yield* q.all<{ text: string; path: string; completed: number }>(
        'SELECT text, path, completed FROM tasks WHERE project_id = ? AND path > ? ORDER BY path LIMIT ?',
        [projectId, after, KNOWLEDGE_TASK_PAGE],
      );
      let spent = false;
      for (const t of tasks) {
        if (length > budget) {
          spent = true;
          break;
        }
        const line = `${'  '.repeat(t.path.split('.').length - 1)}- ${t.completed ? '[x] ' : ''}${t.text}`;
        lines.push(line);
        length += line.length + 1;
      }
      if (spent || tasks.length < KNOWLEDGE_TASK_PAGE || length > budget) break;
      after = tasks[tasks.length - 1]!.path;
    }
    budget = take(parts, lines.join('\n'), budget);
  }
  const contents = mediaContents(svc.config, svc.store);
  for (const media of yield* mediaForKnowledge(svc, agent.knowledge.medias, q)) {
    let text = `## File: ${media.name} (${media.kind}, ${media.contentType}, ${media.size} bytes)`;
    if (media.kind === 'text' && budget > text.length) {
      text += `\n${(yield* contents.prefix(q, media, budget)).toString('utf8')}`;
    }
    budget = take(parts, text, budget);
  }
  return parts.join('\n\n');
}

/** The system message of a command run: who the agent is, how it answers, what it knows. */
export function* systemMessage(svc: Services, agent: Agent, command: AgentCommand, q: Sql = svc.store.sql): Query<string> {
  const lines = [`You are "${agent.name}", an AI agent.`];
  if (agent.data.description) lines.push(agent.data.description);
  lines.push(`Tone: ${agent.data.tone}. Answer in the language with BCP 47 tag "${agent.data.language}".`);
  if (command.mode === 'json') lines.push('Answer with one JSON object and nothing else.');
  if (command.mode.startsWith('plan-and-execute'))
    lines.push('First write a short numbered plan, then carry out each step and give the result.');
  const knowledge = yield* knowledgeText(svc, agent, q);
  if (knowledge) lines.push('', 'Use this knowledge when it helps:', '', knowledge);
  return lines.join('\n');
}

function titleOf(command: AgentCommand, input: string): string {
  const flat = input.replace(/\s+/g, ' ').trim();
  const title = flat ? `${command.name}: ${flat}` : command.name;
  return title.length > COMMAND_RUN_LIMITS.title ? `${title.slice(0, COMMAND_RUN_LIMITS.title - 1)}…` : title;
}

/**
 * Marks conversations left `in_progress` by a previous process (it stopped while a model was
 * answering) as `failed`. Call once at start, before commands run.
 * @returns how many were marked.
 */
export function* failInterruptedConversations(svc: Services, q: Sql = svc.store.sql): Query<number> {
  return yield* q.transaction(function* (tx) {
    return (yield* tx.run("UPDATE conversations SET status = 'failed', updated_at = ? WHERE status = 'in_progress'", [svc.clock.now()]))
      .changes;
  });
}

/** A request to run an agent command. */
export interface CommandRun {
  /** The command's id or name. */
  command: string;
  /** Text put into the prompt's `{{ input }}`; 0..{@link COMMAND_RUN_LIMITS.input} characters, default empty. */
  input?: string;
}

/**
 * Runs an agent command (`POST /api/v1/agents/{agentId}/convos`; also the automation engine's
 * "run agent command" action). Needs Participant. Records a conversation `in_progress` with the
 * rendered prompt, asks the model provider (system message: the agent, its tone, language and
 * knowledge), then records the answer and `completed`; when the provider fails the conversation
 * is recorded as `failed` and the provider's 502 is thrown. With `tools` (automation steps, docs
 * "Agent tools"), the model may call them before it answers (models/tools.ts); the conversation
 * records the prompt and the final answer. With `live` (the streamed answer, stream.ts) the
 * answer's text is reported as it arrives and `live.signal` cancels the call (recorded as failed);
 * what is stored is the same as without it, and a failed answer stores no part of its text.
 * @returns the completed conversation.
 * @throws ServiceError 400 (command missing/too long, input too long), 404 (agent unknown or
 *   outside the caller's workspaces; no command with that id or name), 403, 502 UPSTREAM_ERROR.
 */
export async function runAgentCommand(
  svc: Services,
  actor: Actor,
  agentId: string,
  run: CommandRun,
  tools?: ToolRun,
  live?: AnswerStream,
): Promise<Conversation> {
  const { store, models } = svc;
  // The route's own schema: calls from the engine are refused exactly as the route refuses them.
  svc.inputs.check(commandRunBody, run);
  const input = run.input ?? '';

  // The messages are read (knowledge can mean whole projects and files) before the write lock is taken.
  const { command, messages } = await store.run(commandMessages(svc, actor, agentId, run.command, input, store.sql));
  const started = await store.run(
    store.sql.transaction(function* (tx) {
      // Checked again under the lock: the agent may have been deleted meanwhile (a 404, not a foreign-key failure).
      yield* requireAgent(tx, actor, agentId, 'Participant', 'running an agent command');
      const id = newId();
      const now = svc.clock.now();
      yield* tx.run(
        `INSERT INTO conversations (id, agent_id, title, status, llm_type, llm_name, messages_json, created_by, created_at, updated_at)
         VALUES (?, ?, ?, 'in_progress', ?, ?, ?, ?, ?, ?)`,
        [id, agentId, titleOf(command, input), models.type, models.model, JSON.stringify(messages.slice(1)), actor.userId, now, now],
      );
      return { id, command, messages, row: yield* conversationRow(tx, agentId, id) };
    }),
  );
  if (live) live.started(toConversation(started.row!));

  let answer;
  try {
    const options = {
      purpose: 'agent-command' as const,
      json: started.command.mode === 'json',
      ...(live ? { onText: live.text, signal: live.signal } : {}),
    };
    answer = tools ? await completeWithTools(models, started.messages, options, tools) : await models.complete(started.messages, options);
  } catch (error) {
    await store.run(
      store.sql.transaction(function* (tx) {
        yield* tx.run("UPDATE conversations SET status = 'failed', updated_at = ? WHERE id = ?", [svc.clock.now(), started.id]);
      }),
    );
    if (error instanceof ServiceError) throw error;
    throw new ServiceError(502, 'UPSTREAM_ERROR', `the model provider failed: ${error instanceof Error ? error.message : String(error)}`);
  }

  const history = [...started.messages.slice(1), { role: 'assistant' as const, content: answer.text }];
  return store.run(
    store.sql.transaction(function* (tx) {
      const updated = yield* tx.run(
        "UPDATE conversations SET status = 'completed', llm_name = ?, messages_json = ?, updated_at = ? WHERE id = ?",
        [answer.model, JSON.stringify(history), svc.clock.now(), started.id],
      );
      if (updated.changes === 0) throw notFound('agent', agentId);
      return toConversation((yield* conversationRow(tx, agentId, started.id))!);
    }),
  );
}

/**
 * The access check (Participant), the command named by `ref` and the messages of a run of it:
 * the system message and the rendered prompt.
 * @throws ServiceError 404 (agent unknown or outside the caller's workspaces; no such command), 403.
 */
function* commandMessages(
  svc: Services,
  actor: Actor,
  agentId: string,
  ref: string,
  input: string,
  q: Sql,
): Query<{ command: AgentCommand; messages: ChatMessage[] }> {
  yield* requireAgent(q, actor, agentId, 'Participant', 'running an agent command');
  const agent = yield* agentItem(q, agentId);
  const command = findCommand(agent, ref);
  if (!command) throw new ServiceError(404, 'NOT_FOUND', `agent '${agentId}' has no command with id or name '${ref}'`);
  const messages: ChatMessage[] = [
    { role: 'system', content: yield* systemMessage(svc, agent, command, q) },
    { role: 'user', content: renderPrompt(agent, command.prompt, input) },
  ];
  return { command, messages };
}
