import { useState } from 'react';
import { errorMessage } from '../api/client';
import { useSaveAgent } from './api';
import { AGENT_READ_ONLY_REASON, MODES, TONES, optionOf, type Agent, type Command } from './types';

/**
 * An agent's name, description, tone, language, knowledge switch and commands, saved together
 * with one PATCH (the command list is replaced whole, so removing one is leaving it out).
 */
export function AgentSettings({ agent, readOnly }: { agent: Agent; readOnly: boolean }) {
  const [form, setForm] = useState({
    name: agent.name,
    description: agent.data.description,
    tone: agent.data.tone,
    language: agent.data.language,
    knowledgeEnabled: agent.data.knowledgeEnabled,
  });
  const [commands, setCommands] = useState<Command[]>(agent.data.commands);
  const save = useSaveAgent(agent.id);
  const submit = () =>
    save.mutate(
      {
        name: form.name,
        data: {
          description: form.description,
          tone: form.tone,
          language: form.language,
          knowledgeEnabled: form.knowledgeEnabled,
          commands: commands.map((c) => ({ ...(c.id ? { id: c.id } : {}), name: c.name, prompt: c.prompt, mode: c.mode })),
        },
      },
      // New commands got their ids: keep them, so the next save keeps them too.
      { onSuccess: (saved) => setCommands(saved.item.data.commands) },
    );
  return (
    <form
      className="agent-settings"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <fieldset disabled={readOnly || save.isPending} aria-describedby={readOnly ? AGENT_READ_ONLY_REASON : undefined}>
        <legend>Settings</legend>
        <label>
          Name
          <input value={form.name} maxLength={200} onChange={(e) => setForm({ ...form, name: e.currentTarget.value })} />
        </label>
        <label>
          Description
          <textarea
            value={form.description}
            rows={2}
            maxLength={2000}
            onChange={(e) => setForm({ ...form, description: e.currentTarget.value })}
          />
        </label>
        <div className="pair">
          <label>
            Tone
            <select value={form.tone} onChange={(e) => setForm({ ...form, tone: optionOf(TONES, e.currentTarget.value) ?? form.tone })}>
              {TONES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </label>
          <label>
            Language (e.g. en, fr, pt-BR)
            <input value={form.language} maxLength={35} onChange={(e) => setForm({ ...form, language: e.currentTarget.value })} />
          </label>
        </div>
        <label className="check">
          <input
            type="checkbox"
            checked={form.knowledgeEnabled}
            onChange={(e) => setForm({ ...form, knowledgeEnabled: e.currentTarget.checked })}
          />
          Commands use the agent's knowledge
        </label>
      </fieldset>
      <CommandsFieldset commands={commands} onChange={setCommands} readOnly={readOnly} disabled={readOnly || save.isPending} />
      {!readOnly && <button type="submit">Save agent</button>}
      {save.isError && (
        <p role="alert" className="error">
          {errorMessage(save.error)}
        </p>
      )}
      {save.isSuccess && (
        <p role="status" className="muted small">
          Agent saved.
        </p>
      )}
    </form>
  );
}

/** The agent's commands as the form edits them: name, mode and prompt of each; add and remove (saved with the agent). */
function CommandsFieldset({
  commands,
  onChange,
  readOnly,
  disabled,
}: {
  commands: Command[];
  onChange: (commands: Command[]) => void;
  readOnly: boolean;
  disabled: boolean;
}) {
  const setCommands = onChange;
  const edit = (i: number, patch: Partial<Command>) => setCommands(commands.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  return (
    <fieldset disabled={disabled} aria-describedby={readOnly ? AGENT_READ_ONLY_REASON : undefined}>
      <legend>Commands</legend>
      {commands.length === 0 && <p className="muted small">No commands yet.</p>}
      {commands.map((c, i) => (
        <div key={c.id ?? `new-${i}`} className="command" role="group" aria-label={`Command ${i + 1}`}>
          <div className="pair">
            <label>
              Command name
              <input value={c.name} maxLength={100} onChange={(e) => edit(i, { name: e.currentTarget.value })} />
            </label>
            <label>
              Mode
              <select
                value={c.mode}
                onChange={(e) =>
                  edit(i, {
                    mode:
                      optionOf(
                        MODES.map(([value]) => value),
                        e.currentTarget.value,
                      ) ?? c.mode,
                  })
                }
              >
                {MODES.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <label>
            Prompt ({'{{ input }}'} is what the command is run with)
            <textarea value={c.prompt} rows={3} maxLength={20000} onChange={(e) => edit(i, { prompt: e.currentTarget.value })} />
          </label>
          {!readOnly && (
            <button type="button" className="secondary" onClick={() => setCommands(commands.filter((_, j) => j !== i))}>
              Remove command {c.name || i + 1}
            </button>
          )}
        </div>
      ))}
      {!readOnly && (
        <button
          type="button"
          className="secondary"
          onClick={() => setCommands([...commands, { name: '', prompt: '{{ input }}', mode: 'default' }])}
        >
          Add command
        </button>
      )}
    </fieldset>
  );
}
