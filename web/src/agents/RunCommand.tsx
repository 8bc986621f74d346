import { useEffect, useRef, useState } from 'react';
import './agents.css';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Send } from 'lucide-react';
import { api, errorMessage, unwrap } from '../api/client';
import Markdown from '../components/Markdown';
import { useConversations } from './queries';
import type { Agent, Conversation } from './types';

/**
 * One conversation as a chat, oldest message at the top and newest at the bottom (answers are
 * markdown, sanitized), with a box for a follow-up message (Enter sends, Shift+Enter a new line).
 */
function Chat({ agentId, conversation, canRun }: { agentId: string; conversation: Conversation; canRun: boolean }) {
  const queries = useQueryClient();
  const [text, setText] = useState('');
  const end = useRef<HTMLDivElement>(null);
  const send = useMutation({
    mutationFn: async (message: string) =>
      unwrap(
        await api.POST('/api/v1/agents/{agentId}/convos/{convoId}/messages', {
          params: { path: { agentId, convoId: conversation.id } },
          body: { text: message },
        }),
      ),
    onSuccess: () => setText(''),
    onSettled: () => queries.invalidateQueries({ queryKey: ['conversations', agentId] }),
  });
  const messages = conversation.data.messages;
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'nearest' });
  }, [messages.length, send.isPending]);
  const submit = () => {
    if (text.trim() !== '' && !send.isPending) send.mutate(text);
  };
  return (
    <article className="chat" aria-label={conversation.title}>
      <h3>{conversation.title}</h3>
      <ol className="chat-messages" aria-label="Messages">
        {messages.map((m, i) => (
          <li key={i} className={m.role === 'assistant' ? 'chat-message chat-assistant' : 'chat-message chat-user'}>
            <span className="visually-hidden">{m.role === 'assistant' ? 'Agent:' : 'You:'}</span>
            {m.role === 'assistant' ? <Markdown text={m.content} /> : <p>{m.content}</p>}
          </li>
        ))}
        {send.isPending && (
          <>
            <li className="chat-message chat-user">
              <p>{send.variables}</p>
            </li>
            <li className="chat-message chat-assistant muted" role="status">
              Thinking…
            </li>
          </>
        )}
      </ol>
      <div ref={end} />
      {conversation.status === 'requires_review' && <p className="error small">The last answer failed; send the message again.</p>}
      {canRun && (
        <form
          className="chat-composer"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <label className="visually-hidden" htmlFor={`reply-${conversation.id}`}>
            Message
          </label>
          <textarea
            id={`reply-${conversation.id}`}
            value={text}
            rows={2}
            maxLength={20000}
            placeholder="Ask a follow-up question"
            onChange={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey) {
                e.preventDefault();
                submit();
              }
            }}
          />
          <button type="submit" disabled={send.isPending || text.trim() === ''}>
            <Send size={14} aria-hidden="true" /> Send
          </button>
        </form>
      )}
      {send.isError && (
        <p role="alert" className="error">
          {errorMessage(send.error)}
        </p>
      )}
    </article>
  );
}

/**
 * Starts a conversation by running one of the agent's commands with an input, and shows the
 * agent's conversations as chats: the list (newest first) and the chosen one, where follow-up
 * messages continue it (docs "Web app", "Agents").
 */
export function RunCommand({ agent, canRun }: { agent: Agent; canRun: boolean }) {
  const queries = useQueryClient();
  const conversations = useConversations(agent.id);
  const [command, setCommand] = useState(agent.data.commands[0]?.id ?? '');
  const [input, setInput] = useState('');
  const [openId, setOpenId] = useState<string | null>(null);
  const run = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST('/api/v1/agents/{agentId}/convos', {
          params: { path: { agentId: agent.id } },
          body: { command: command || agent.data.commands[0]!.id!, input },
        }),
      ).item,
    onSuccess: (made) => {
      setInput('');
      setOpenId(made.id);
    },
    onSettled: () => queries.invalidateQueries({ queryKey: ['conversations', agent.id] }),
  });
  const list = conversations.data ?? [];
  const open = list.find((c) => c.id === openId) ?? list[0];
  return (
    <section aria-labelledby="run-title">
      <h2 id="run-title">New conversation</h2>
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
      {list.length > 1 && (
        <label>
          Conversation
          <select value={open?.id ?? ''} onChange={(e) => setOpenId(e.currentTarget.value)}>
            {list.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title} · {new Date(c.createdAt).toLocaleString()}
              </option>
            ))}
          </select>
        </label>
      )}
      {open && <Chat key={open.id} agentId={agent.id} conversation={open} canRun={canRun} />}
    </section>
  );
}
