import type { Actor } from '../../auth/tokens';
import type { Services } from '../../services';
import type { Agent, AgentCommand } from '../agents/agent-data';
import { AGENT_COLUMNS, toAgents, type AgentRow } from '../agents/records';
import { renderPrompt } from '../conversations/service';
import { snakeCase } from './automation-tools';

/**
 * Agents' commands as MCP prompts (docs/mcp.md "Prompts"): each command of each agent the caller
 * can read (an agent of a workspace they are a member of) is the prompt `<agent>.<command>`, both
 * names in snake_case. Commands declare no inputs of their own: every prompt takes one optional
 * argument, `input`, rendered into the command's prompt as a run of the command renders it
 * (`{{ input }}`, `{{ agent.name }}`…; `renderPrompt`). `prompts/get` answers with that text as
 * one user message.
 */

/** The argument of every command prompt. */
export const PROMPT_ARGUMENTS = [
  {
    name: 'input',
    description: "Text for the command: it fills the prompt's {{ input }}, or follows the prompt after a blank line",
    required: false,
  },
];

/** One command of one agent, offered as a prompt. */
export interface CommandPrompt {
  name: string;
  title: string;
  description: string;
  agent: Agent;
  command: AgentCommand;
}

/**
 * The command prompts `actor` can read, by name, agents in the order they were made. Two commands
 * whose names give one prompt name get `_2`, `_3`… in that order.
 */
export async function commandPrompts(svc: Services, actor: Actor): Promise<Map<string, CommandPrompt>> {
  const q = svc.store.sql;
  const agents = await svc.store.run(
    (function* () {
      const rows = yield* q.all<AgentRow>(
        `SELECT ${AGENT_COLUMNS} FROM agents
          WHERE workspace_id IN (SELECT m.workspace_id FROM workspace_members m WHERE m.user_id = ?)
          ORDER BY created_at, id`,
        [actor.userId],
      );
      return yield* toAgents(q, rows);
    })(),
  );
  const prompts = new Map<string, CommandPrompt>();
  for (const agent of agents) {
    for (const command of agent.data.commands) {
      const base = `${snakeCase(agent.name) || 'agent'}.${snakeCase(command.name) || 'command'}`;
      let name = base;
      for (let n = 2; prompts.has(name); n++) name = `${base}_${n}`;
      prompts.set(name, {
        name,
        title: `${agent.name}: ${command.name}`,
        description: `The command "${command.name}" of the Taskspace agent "${agent.name}"${agent.data.description ? ` (${agent.data.description})` : ''}`,
        agent,
        command,
      });
    }
  }
  return prompts;
}

/** The text of a command prompt with `input` (absent: empty), as a run of the command renders it. */
export function promptText(prompt: CommandPrompt, input: string | undefined): string {
  return renderPrompt(prompt.agent, prompt.command.prompt, input ?? '');
}
