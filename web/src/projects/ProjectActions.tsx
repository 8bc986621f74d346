import type { paths } from '../api/schema';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../api/client';
import { FieldManager } from './FieldManager';
import { ProjectPlace } from './ProjectPlace';

/** A project as the API returns it (the fields used here). */
type Project = Pick<
  paths['/api/v1/projects/{projectId}']['get']['responses'][200]['content']['application/json']['item'],
  'id' | 'name' | 'folderId' | 'workspaceId' | 'completed'
>;

/** A project's actions for Collaborators: copy, save as template, custom fields, complete or restore, share link, delete. */
export function ProjectActions({ project }: { project: Project }) {
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [showFields, setShowFields] = useState(false);
  const [showPlace, setShowPlace] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const path = { params: { path: { projectId: project.id } } };
  const share = useQuery({
    queryKey: ['share', project.id],
    retry: false,
    // `item` is null while the project has no share link.
    queryFn: async () => unwrap(await api.GET('/api/v1/projects/{projectId}/shareLink', path)).item ?? null,
  });
  const act = useMutation({
    mutationFn: async (action: 'copy' | 'template' | 'complete' | 'restore' | 'share' | 'unshare' | 'delete') => {
      switch (action) {
        case 'template':
          return unwrap(
            await api.POST('/api/v1/projects/{projectId}/copy', {
              ...path,
              body: { folderId: project.folderId, projectTitle: project.name, isTemplate: true },
            }),
          ).item;
        case 'copy':
          return unwrap(
            await api.POST('/api/v1/projects/{projectId}/copy', {
              ...path,
              body: { folderId: project.folderId, projectTitle: `Copy of ${project.name}`.slice(0, 200) },
            }),
          ).item;
        case 'complete':
          return unwrap(await api.POST('/api/v1/projects/{projectId}/complete', path)).item;
        case 'restore':
          return unwrap(await api.POST('/api/v1/projects/{projectId}/restore', path)).item;
        case 'share':
          return unwrap(await api.PUT('/api/v1/projects/{projectId}/shareLink', path));
        case 'unshare':
          return unwrap(await api.DELETE('/api/v1/projects/{projectId}/shareLink', path));
        case 'delete':
          return unwrap(await api.DELETE('/api/v1/projects/{projectId}', path));
      }
    },
    onMutate: () => {
      setError(null);
      setNotice(null);
    },
    onError: (e) => setError(e instanceof ApiError ? e.message : 'Something went wrong'),
    onSuccess: (result, action) => {
      void queries.invalidateQueries({ queryKey: ['projects', project.folderId] });
      void queries.invalidateQueries({ queryKey: ['project', project.id] });
      void queries.invalidateQueries({ queryKey: ['share', project.id] });
      if (action === 'copy' && result && typeof result === 'object' && 'id' in result) navigate(`/projects/${String(result.id)}`);
      if (action === 'delete') navigate('/');
      if (action === 'template') {
        void queries.invalidateQueries({ queryKey: ['templates', project.folderId] });
        setNotice(`Saved “${project.name}” as a template: pick it under New project in this folder.`);
      }
    },
  });
  return (
    <div className="project-actions">
      <div className="row" role="group" aria-label="Project actions">
        <button type="button" className="secondary" onClick={() => act.mutate('copy')}>
          Copy
        </button>
        <button type="button" className="secondary" onClick={() => act.mutate('template')}>
          Save as template
        </button>
        <button type="button" className="secondary" aria-expanded={showPlace} onClick={() => setShowPlace(!showPlace)}>
          Rename or move
        </button>
        <button type="button" className="secondary" aria-expanded={showFields} onClick={() => setShowFields(!showFields)}>
          Custom fields
        </button>
        <button type="button" className="secondary" onClick={() => act.mutate(project.completed ? 'restore' : 'complete')}>
          {project.completed ? 'Restore' : 'Complete project'}
        </button>
        {share.data ? (
          <button type="button" className="secondary" onClick={() => act.mutate('unshare')}>
            Revoke share link
          </button>
        ) : (
          <button type="button" className="secondary" onClick={() => act.mutate('share')} disabled={project.completed}>
            Share link
          </button>
        )}
        <button
          type="button"
          className="secondary danger"
          onClick={() => {
            if (window.confirm(`Delete "${project.name}" with all its tasks?`)) act.mutate('delete');
          }}
        >
          Delete
        </button>
      </div>
      {share.data && (
        <p className="small">
          Read-only link: <a href={share.data.viewUrl}>{share.data.viewUrl}</a>
        </p>
      )}
      {notice && (
        <p role="status" className="small">
          {notice}
        </p>
      )}
      {showPlace && <ProjectPlace key={`${project.name}:${project.folderId}`} project={project} />}
      {showFields && <FieldManager projectId={project.id} />}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </div>
  );
}
