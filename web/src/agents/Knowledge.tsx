import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { mediaQuery } from '../media/api';
import { folderProjectsQuery } from '../projects/api';
import { useKnowledgeChange } from './api';
import type { Agent } from './types';

/** A select of what can be attached and its Attach button. */
function Picker({ label, options, onAttach }: { label: string; options: { id: string; name: string }[]; onAttach: (id: string) => void }) {
  const [chosen, setChosen] = useState('');
  return (
    <div className="pair">
      <label>
        {label} to attach
        <select value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
          <option value="">Choose…</option>
          {options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        disabled={!chosen}
        onClick={() => {
          onAttach(chosen);
          setChosen('');
        }}
      >
        Attach {label.toLowerCase()}
      </button>
    </div>
  );
}

/**
 * What the agent knows: projects (their task trees) and media (text files' content), attached and
 * detached one by one. New attachments are chosen among the agent's folder's projects and media.
 */
export function Knowledge({ agent, readOnly }: { agent: Agent; readOnly: boolean }) {
  const projects = useQuery(folderProjectsQuery(agent.space_id));
  const media = useQuery(mediaQuery(agent.space_id));
  const change = useKnowledgeChange(agent.id);
  const projectName = (id: string) => projects.data?.find((p) => p.id === id)?.name ?? id;
  const mediaName = (id: string) => media.data?.find((m) => m.id === id)?.name ?? id;
  const list = (kind: 'project' | 'media', ids: string[], name: (id: string) => string) =>
    ids.length === 0 ? (
      <p className="muted small">None.</p>
    ) : (
      <ul>
        {ids.map((id) => (
          <li key={id}>
            {name(id)}{' '}
            {!readOnly && (
              <button
                type="button"
                className="icon"
                aria-label={`Detach ${name(id)}`}
                onClick={() => change.mutate({ kind, id, attach: false })}
              >
                ✕
              </button>
            )}
          </li>
        ))}
      </ul>
    );
  return (
    <section aria-labelledby="knowledge-title">
      <h2 id="knowledge-title">Knowledge</h2>
      <h3>Projects</h3>
      {list('project', agent.knowledge.projects, projectName)}
      {!readOnly && (
        <Picker
          label="Project"
          options={(projects.data ?? []).filter((p) => !agent.knowledge.projects.includes(p.id))}
          onAttach={(id) => change.mutate({ kind: 'project', id, attach: true })}
        />
      )}
      <h3>Media</h3>
      {list('media', agent.knowledge.medias, mediaName)}
      {!readOnly && (
        <Picker
          label="Media"
          options={(media.data ?? []).filter((m) => !agent.knowledge.medias.includes(m.id))}
          onAttach={(id) => change.mutate({ kind: 'media', id, attach: true })}
        />
      )}
      {change.isError && (
        <p role="alert" className="error">
          {errorMessage(change.error)}
        </p>
      )}
    </section>
  );
}
