import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../api/client';
import { useCreateWorkspace } from './api';
import { useToast } from '../components/Toasts';
import { useWorkspaceContext } from './context';
import './workspaces.css';

/** Longest workspace name the service takes (docs/api.md "Workspaces, folders and the caller"). */
export const MAX_WORKSPACE_NAME = 100;

/**
 * New workspace (the sidebar's "New workspace"): a name, then the person is its Owner, the
 * sidebar switches to it and the home screen shows it (docs "Web app", "Workspaces").
 */
export function NewWorkspace() {
  const [name, setName] = useState('');
  const navigate = useNavigate();
  const toast = useToast();
  const { chooseWorkspace } = useWorkspaceContext();
  const create = useCreateWorkspace();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() !== '')
      create.mutate(name.trim(), {
        onSuccess: (item) => {
          chooseWorkspace(item.id);
          toast({ message: `Workspace “${item.name}” created; you are its Owner.` });
          navigate('/');
        },
      });
  };
  return (
    <section aria-labelledby="new-workspace-title">
      <div className="page-header">
        <div>
          <h1 id="new-workspace-title">New workspace</h1>
          <p className="muted">
            A workspace has its own projects, members, automations and agents. You will be its Owner and can invite others.
          </p>
        </div>
      </div>
      <form className="card wide" onSubmit={submit} aria-label="New workspace">
        <label>
          Workspace name
          <input
            required
            maxLength={MAX_WORKSPACE_NAME}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            placeholder="Marketing"
            autoComplete="off"
          />
        </label>
        {create.isError && (
          <p role="alert" className="error">
            {errorMessage(create.error)}
          </p>
        )}
        <div className="btn-row">
          <button type="submit" disabled={create.isPending || name.trim() === ''}>
            Create workspace
          </button>
        </div>
      </form>
    </section>
  );
}
