import { useEffect, useRef, useState } from 'react';
import './agents.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Send, Square } from 'lucide-react';
import { errorMessage } from '../api/client';
import { agentKeys } from '../api/keys';
import Markdown from '../components/Markdown';
import { readAnswer } from './answerStream';
import { conversationsQuery, sendMessage, startConversation } from './api';
import type { Agent, Conversation } from './types';

/** The answer being streamed: the message sent, whether the server recorded it, and the text so far. */
interface Pending {
  question: string;
  recorded: boolean;
  answer: string;
}

/**
 * A follow-up message to `conversation` and its streamed answer: what is being typed, the answer
 * so far (`streaming`, also a command run's `incoming` answer), Stop (`stop`), and what went wrong.
 * While the conversation is answered elsewhere it is read again every second until it settles.
 */
function useFollowUp(agentId: string, conversation: Conversation, incoming: { answer: string } | undefined) {
  const queries = useQueryClient();
  const [text, setText] = useState('');
  const [pending, setPending] = useState<Pending | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [stopped, setStopped] = useState(false);
  const stop = useRef<AbortController | null>(null);
  const streaming = pending ?? (incoming ? { question: '', recorded: true, answer: incoming.answer } : null);
  const key = agentKeys.conversations(agentId);
  const store = (item: Conversation) =>
    queries.setQueryData<Conversation[]>(key, (list) => list?.map((c) => (c.id === item.id ? item : c)));
  useEffect(() => () => stop.current?.abort(), []);
  // Answered elsewhere (another tab, or just stopped here): read again until it settles.
  const answering = conversation.status === 'in_progress' && !streaming;
  useEffect(() => {
    if (!answering) return;
    const timer = setTimeout(() => void queries.invalidateQueries({ queryKey: key }), 1000);
    return () => clearTimeout(timer);
  });
  const submit = async () => {
    if (text.trim() === '' || streaming) return;
    const question = text;
    const controller = new AbortController();
    stop.current = controller;
    setPending({ question, recorded: false, answer: '' });
    setFailure(null);
    setStopped(false);
    try {
      const result = await sendMessage(agentId, conversation.id, question, controller.signal);
      const item = await readAnswer(
        result,
        (delta) => setPending((p) => p && { ...p, answer: p.answer + delta }),
        (started) => {
          store(started);
          setPending((p) => p && { ...p, recorded: true });
        },
      );
      store(item);
      setText('');
    } catch (error) {
      if (controller.signal.aborted) setStopped(true);
      else setFailure(error);
    } finally {
      stop.current = null;
      setPending(null);
      void queries.invalidateQueries({ queryKey: key });
    }
  };
  return { text, setText, pending, failure, stopped, stop, submit, streaming, answering };
}

/**
 * One conversation as a chat, oldest message at the top and newest at the bottom (answers are
 * markdown, sanitized), with a box for a follow-up message (Enter sends, Shift+Enter a new line).
 * The answer streams in as the model writes it (`Accept: text/event-stream`; a server that does
 * not stream answers JSON, shown whole); the list is a polite live region, `aria-busy` while the
 * answer streams so screen readers read it once complete; **Stop** aborts it.
 */
function Chat({
  agentId,
  conversation,
  canRun,
  incoming,
}: {
  agentId: string;
  conversation: Conversation;
  canRun: boolean;
  /** The answer of a command run streaming into this conversation (it is recorded already), and how to stop it. */
  incoming?: { answer: string; stop: () => void };
}) {
  const { text, setText, pending, failure, stopped, stop, submit, streaming, answering } = useFollowUp(agentId, conversation, incoming);
  const end = useRef<HTMLDivElement>(null);
  const messages = conversation.data.messages;
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'nearest' });
  }, [messages.length, streaming?.answer]);
  return (
    <article className="chat" aria-label={conversation.title}>
      <h3>{conversation.title}</h3>
      <ol className="chat-messages" aria-label="Messages" aria-live="polite" aria-busy={streaming ? 'true' : 'false'}>
        {messages.map((m, i) => (
          <li key={i} className={m.role === 'assistant' ? 'chat-message chat-assistant' : 'chat-message chat-user'}>
            <span className="visually-hidden">{m.role === 'assistant' ? 'Agent:' : 'You:'}</span>
            {m.role === 'assistant' ? <Markdown text={m.content} /> : <p>{m.content}</p>}
          </li>
        ))}
        {streaming && !streaming.recorded && (
          <li className="chat-message chat-user">
            <span className="visually-hidden">You:</span>
            <p>{streaming.question}</p>
          </li>
        )}
        {streaming && (
          <li className="chat-message chat-assistant">
            <span className="visually-hidden">Agent:</span>
            {streaming.answer ? <Markdown text={streaming.answer} /> : <p className="muted">Thinking…</p>}
          </li>
        )}
      </ol>
      <div ref={end} />
      {answering && <p className="muted small">The agent is answering…</p>}
      {conversation.status === 'requires_review' && !streaming && (
        <p className="error small">
          {stopped ? 'You stopped the answer; send the message again for a new one.' : 'The last answer failed; send the message again.'}
        </p>
      )}
      {canRun && (
        <form
          className="chat-composer"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
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
                void submit();
              }
            }}
          />
          {/* Distinct keys: one element must not turn from Stop into a submit button while its click is handled. */}
          {streaming ? (
            <button key="stop" type="button" onClick={() => (pending ? stop.current?.abort() : incoming?.stop())}>
              <Square size={14} aria-hidden="true" /> Stop
            </button>
          ) : (
            <button key="send" type="submit" disabled={text.trim() === ''}>
              <Send size={14} aria-hidden="true" /> Send
            </button>
          )}
        </form>
      )}
      {failure !== null && (
        <p role="alert" className="error">
          {errorMessage(failure)}
        </p>
      )}
    </article>
  );
}

/**
 * Running one of `agent`'s commands: the new conversation is put first in the list and opened
 * (`open`) as soon as it is recorded, its answer streamed in as `incoming` until it is complete;
 * `stop` aborts it.
 */
function useCommandRun(agent: Agent, open: (conversationId: string) => void) {
  const queries = useQueryClient();
  // The answer of the run under way, streamed into its conversation's chat once it is recorded.
  const [incoming, setIncoming] = useState<{ id: string; answer: string } | null>(null);
  const stop = useRef<AbortController | null>(null);
  useEffect(() => () => stop.current?.abort(), []);
  const run = useMutation({
    mutationFn: async (body: { command: string; input: string }) => {
      const controller = new AbortController();
      stop.current = controller;
      try {
        const result = await startConversation(agent.id, body, controller.signal);
        return await readAnswer(
          result,
          (delta) => setIncoming((p) => p && { ...p, answer: p.answer + delta }),
          (started) => {
            queries.setQueryData<Conversation[]>(agentKeys.conversations(agent.id), (list) => [started, ...(list ?? [])]);
            open(started.id);
            setIncoming({ id: started.id, answer: '' });
          },
        );
      } catch (error) {
        if (controller.signal.aborted) return null;
        throw error;
      } finally {
        stop.current = null;
        setIncoming(null);
      }
    },
    onSettled: () => queries.invalidateQueries({ queryKey: agentKeys.conversations(agent.id) }),
  });
  return { run, incoming, stop };
}

/**
 * Starts a conversation by running one of the agent's commands with an input, and shows the
 * agent's conversations as chats: the list (newest first) and the chosen one, where follow-up
 * messages continue it (docs "Web app", "Agents").
 */
export function RunCommand({ agent, canRun }: { agent: Agent; canRun: boolean }) {
  const conversations = useQuery(conversationsQuery(agent.id));
  const [command, setCommand] = useState(agent.data.commands[0]?.id ?? '');
  const [input, setInput] = useState('');
  const [openId, setOpenId] = useState<string | null>(null);
  const { run, incoming, stop } = useCommandRun(agent, setOpenId);
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
              run.mutate(
                { command: command || agent.data.commands[0]!.id!, input },
                {
                  onSuccess: (made) => {
                    if (!made) return;
                    setInput('');
                    setOpenId(made.id);
                  },
                },
              );
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
      {open && (
        <Chat
          key={open.id}
          agentId={agent.id}
          conversation={open}
          canRun={canRun}
          incoming={incoming?.id === open.id ? { answer: incoming.answer, stop: () => stop.current?.abort() } : undefined}
        />
      )}
    </section>
  );
}
