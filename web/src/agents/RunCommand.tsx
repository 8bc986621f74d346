import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, errorMessage, unwrap } from '../api/client';
import Markdown from '../components/Markdown';
import { useConversations } from './queries';
import type { Agent, Conversation } from './types';

/** One conversation: what was asked and the answer (markdown, sanitized). */
function ConversationView({ conversation }: { conversation: Conversation }) {
  return (
    <article className="conversation" aria-label={conversation.title}>
      <h3>{conversation.title}</h3>
      {conversation.data.messages.map((m, i) =>
        m.role === 'assistant' ? (
          <Markdown key={i} text={m.content} />
        ) : (
          <p key={i} className="muted small prompt">
            {m.content}
          </p>
        ),
      )}
    </article>
  );
}

/** Runs one of the agent's commands with an input, and lists the agent's conversations, newest first. */
export function RunCommand({ agent, canRun }: { agent: Agent; canRun: boolean }) {
  const queries = useQueryClient();
  const conversations = useConversations(agent.id);
  const [command, setCommand] = useState(agent.data.commands[0]?.id ?? '');
  const [input, setInput] = useState('');
  const run = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST('/api/v1/agents/{agentId}/convos', {
          params: { path: { agentId: agent.id } },
          body: { command: command || agent.data.commands[0]!.id!, input },
        }),
      ),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['conversations', agent.id] }),
  });
  return (
    <section aria-labelledby="run-title">
      <h2 id="run-title">Run a command</h2>
      {agent.data.commands.length === 0 ? (
        <p className="muted">Add a command first.</p>
      ) : (
        canRun && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              run.mutate();
            }}
          >
            <label>
              Command
              <select value={command} onChange={(e) => setCommand(e.currentTarget.value)}>
                {agent.data.commands.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Input
              <textarea value={input} rows={3} maxLength={20000} onChange={(e) => setInput(e.currentTarget.value)} />
            </label>
            <button type="submit" disabled={run.isPending}>
              {run.isPending ? 'Running…' : 'Run'}
            </button>
            {run.isError && (
              <p role="alert" className="error">
                {errorMessage(run.error)}
              </p>
            )}
          </form>
        )
      )}
      <h2>Conversations</h2>
      {conversations.data?.length === 0 && <p className="muted small">No conversations yet.</p>}
      {conversations.data?.map((c) => (
        <ConversationView key={c.id} conversation={c} />
      ))}
    </section>
  );
}
