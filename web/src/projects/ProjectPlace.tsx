import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { projectKeys, workspaceKeys } from '../api/keys';
import { useFolders } from '../workspaces/api';
import { changePlace, type PlaceChange, type ProjectItem } from './api';

/** A project as the API returns it (the fields used here). */
type Project = Pick<ProjectItem, 'id' | 'name' | 'folderId' | 'workspaceId'>;

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
      queries.invalidateQueries({ queryKey: projectKeys.one(project.id) }),
      queries.invalidateQueries({ queryKey: projectKeys.lists() }),
      queries.invalidateQueries({ queryKey: workspaceKeys.folders(project.workspaceId) }),
      queries.invalidateQueries({ queryKey: projectKeys.palette() }),
    ]);
  const change = useMutation({
    mutationFn: (op: PlaceChange) => changePlace(project, op),
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
          if (name.trim() !== '' && name.trim() !== project.name) change.mutate({ kind: 'rename', name: name.trim() });
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
          if (newFolder.trim() !== '') change.mutate({ kind: 'folder', name: newFolder.trim() });
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
            if (folderName.trim() !== '') change.mutate({ kind: 'rename-folder', name: folderName.trim() });
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
