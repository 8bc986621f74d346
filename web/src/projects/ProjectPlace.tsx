import type { paths } from '../api/schema';
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, errorMessage, unwrap } from '../api/client';
import { useFolders } from '../api/queries';

/** A project as the API returns it (the fields used here). */
type Project = Pick<
  paths['/api/v1/projects/{projectId}']['get']['responses'][200]['content']['application/json']['item'],
  'id' | 'name' | 'folderId' | 'workspaceId'
>;

/**
 * Renaming a project and moving it to another folder of its workspace, making a folder and
 * renaming the project's folder (docs "Web app", "Projects and folders"); for Collaborators.
 */
export function ProjectPlace({ project }: { project: Project }) {
  const queries = useQueryClient();
  const folders = useFolders(project.workspaceId);
  const [name, setName] = useState(project.name);
  const [folderName, setFolderName] = useState('');
  const [newFolder, setNewFolder] = useState('');
  const current = folders.data?.find((f) => f.id === project.folderId);
  const refresh = () =>
    Promise.all([
      queries.invalidateQueries({ queryKey: ['project', project.id] }),
      queries.invalidateQueries({ queryKey: ['projects'] }),
      queries.invalidateQueries({ queryKey: ['folders', project.workspaceId] }),
      queries.invalidateQueries({ queryKey: ['palette-projects'] }),
    ]);
  const change = useMutation({
    mutationFn: async (op: { kind: 'rename' } | { kind: 'move'; folderId: string } | { kind: 'folder' } | { kind: 'rename-folder' }) => {
      switch (op.kind) {
        case 'rename':
          return unwrap(
            await api.PATCH('/api/v1/projects/{projectId}', { params: { path: { projectId: project.id } }, body: { name: name.trim() } }),
          );
        case 'move':
          return unwrap(
            await api.PATCH('/api/v1/projects/{projectId}', {
              params: { path: { projectId: project.id } },
              body: { folderId: op.folderId },
            }),
          );
        case 'folder': {
          const made = unwrap(
            await api.POST('/api/v1/workspaces/{workspaceId}/folders', {
              params: { path: { workspaceId: project.workspaceId } },
              body: { name: newFolder.trim() },
            }),
          ).item;
          return unwrap(
            await api.PATCH('/api/v1/projects/{projectId}', { params: { path: { projectId: project.id } }, body: { folderId: made.id } }),
          );
        }
        case 'rename-folder':
          return unwrap(
            await api.PATCH('/api/v1/folders/{folderId}', {
              params: { path: { folderId: project.folderId } },
              body: { name: folderName.trim() },
            }),
          );
      }
    },
    onSuccess: (_r, op) => {
      if (op.kind === 'folder') setNewFolder('');
      if (op.kind === 'rename-folder') setFolderName('');
    },
    onSettled: refresh,
  });
  return (
    <section className="field-manager" aria-labelledby="place-title">
      <h2 id="place-title">Name and folder</h2>
      <form
        className="field-define"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim() !== '' && name.trim() !== project.name) change.mutate({ kind: 'rename' });
        }}
      >
        <label>
          Project name
          <input value={name} maxLength={200} onChange={(e) => setName(e.currentTarget.value)} />
        </label>
        <button type="submit" className="secondary">
          Rename
        </button>
      </form>
      <div className="field-define">
        <label>
          Folder
          <select value={project.folderId} onChange={(e) => change.mutate({ kind: 'move', folderId: e.currentTarget.value })}>
            {folders.data?.map((f) => (
              <option key={f.id} value={f.id}>
                {f.isHome ? 'Home' : f.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <form
        className="field-define"
        onSubmit={(e) => {
          e.preventDefault();
          if (newFolder.trim() !== '') change.mutate({ kind: 'folder' });
        }}
      >
        <label>
          New folder
          <input value={newFolder} maxLength={200} onChange={(e) => setNewFolder(e.currentTarget.value)} />
        </label>
        <button type="submit" className="secondary">
          Create and move here
        </button>
      </form>
      {current && !current.isHome && (
        <form
          className="field-define"
          onSubmit={(e) => {
            e.preventDefault();
            if (folderName.trim() !== '') change.mutate({ kind: 'rename-folder' });
          }}
        >
          <label>
            Rename folder “{current.name}”
            <input value={folderName} maxLength={200} onChange={(e) => setFolderName(e.currentTarget.value)} />
          </label>
          <button type="submit" className="secondary">
            Rename folder
          </button>
        </form>
      )}
      {change.isError && (
        <p role="alert" className="error">
          {errorMessage(change.error)}
        </p>
      )}
    </section>
  );
}
