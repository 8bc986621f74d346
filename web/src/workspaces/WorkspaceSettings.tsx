import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Building2, Plus } from 'lucide-react';
import { errorMessage } from '../api/client';
import { useRenameWorkspace, useWorkspaces } from './api';
import { EmptyState } from '../components/EmptyState';
import { RoleGuide, roleDescription } from '../components/roles';
import { can, deniedProps, PermissionNote } from '../components/permissions';
import { useToast } from '../components/Toasts';
import { useWorkspaceContext } from './context';
import { MAX_WORKSPACE_NAME } from './NewWorkspace';
import './workspaces.css';

/**
 * Settings → Workspace (docs "Web app", "Workspaces"): the sidebar's workspace, the person's role
 * in it and what each role may do; its Owners rename it, everyone else sees why they cannot.
 */
export function WorkspaceSettings() {
  const workspaces = useWorkspaces();
  const { workspaceId } = useWorkspaceContext();
  const workspace = workspaces.data?.find((w) => w.id === workspaceId);
  if (workspaces.isError) return <p className="error">{errorMessage(workspaces.error)}</p>;
  if (!workspaces.data) return <p className="muted">Loading…</p>;
  if (!workspace) {
    return (
      <EmptyState
        level={1}
        icon={Building2}
        title="No workspace"
        action={
          <Link className="btn btn-primary" to="/workspaces/new">
            <Plus className="icon" aria-hidden="true" />
            New workspace
          </Link>
        }
      >
        You belong to no workspace yet: create one, or ask an Owner for an invitation.
      </EmptyState>
    );
  }
  return (
    <section aria-labelledby="workspace-title">
      <div className="page-header">
        <div>
          <h1 id="workspace-title">Workspace</h1>
          <p className="muted">Settings of {workspace.name}, the workspace the sidebar shows (switch it at the top of the sidebar).</p>
        </div>
      </div>
      <div className="stack-lg">
        <Rename key={workspace.id} workspace={workspace} />
        <section className="card wide" aria-labelledby="your-role-title">
          <h2 id="your-role-title">Your role</h2>
          <p>
            <span className="badge">{workspace.role}</span> {roleDescription(workspace.role)}
          </p>
          <RoleGuide />
          <p className="small">
            <Link to="/settings/members">Members and invitations</Link>
          </p>
        </section>
      </div>
    </section>
  );
}

function Rename({ workspace }: { workspace: { id: string; name: string; role: string } }) {
  const [name, setName] = useState(workspace.name);
  const toast = useToast();
  const owner = can(workspace.role, 'renameWorkspace');
  const rename = useRenameWorkspace(workspace.id);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() !== '' && name.trim() !== workspace.name)
      rename.mutate(name.trim(), {
        onSuccess: ({ item }) => {
          setName(item.name);
          toast({ message: `Workspace renamed to “${item.name}”.` });
        },
      });
  };
  return (
    <form className="card wide" onSubmit={submit} aria-labelledby="rename-title">
      <h2 id="rename-title">Name</h2>
      <label>
        Workspace name
        <input
          required
          maxLength={MAX_WORKSPACE_NAME}
          value={name}
          {...deniedProps(workspace.role, 'renameWorkspace', 'rename-reason')}
          onChange={(e) => setName(e.currentTarget.value)}
        />
      </label>
      <PermissionNote role={workspace.role} action="renameWorkspace" id="rename-reason" />
      {rename.isError && (
        <p role="alert" className="error">
          {errorMessage(rename.error)}
        </p>
      )}
      {owner && (
        <div className="btn-row">
          <button type="submit" disabled={rename.isPending || name.trim() === '' || name.trim() === workspace.name}>
            Rename workspace
          </button>
        </div>
      )}
    </form>
  );
}
