import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, errorMessage, unwrap } from '../api/client';
import { useFolderProjects } from '../api/queries';
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
  const queries = useQueryClient();
  const projects = useFolderProjects(agent.space_id);
  const media = useQuery({
    queryKey: ['media', agent.space_id],
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/folders/{folderId}/medias', { params: { path: { folderId: agent.space_id } } })).items as {
        id: string;
        name: string;
      }[],
  });
  const change = useMutation({
    mutationFn: async (p: { kind: 'project' | 'media'; id: string; attach: boolean }) => {
      const path = { agentId: agent.id };
      if (p.kind === 'project') {
        return p.attach
          ? unwrap(await api.POST('/api/v1/agents/{agentId}/knowledge/project', { params: { path }, body: { projectId: p.id } }))
          : unwrap(
              await api.DELETE('/api/v1/agents/{agentId}/knowledge/project/{projectId}', {
                params: { path: { ...path, projectId: p.id } },
              }),
            );
      }
      return p.attach
        ? unwrap(await api.POST('/api/v1/agents/{agentId}/knowledge/media', { params: { path }, body: { mediaId: p.id } }))
        : unwrap(await api.DELETE('/api/v1/agents/{agentId}/knowledge/media/{mediaId}', { params: { path: { ...path, mediaId: p.id } } }));
    },
    onSuccess: () => queries.invalidateQueries({ queryKey: ['agent', agent.id] }),
  });
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
