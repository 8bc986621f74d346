import { useState, type ReactNode } from 'react';
import { useWorkspaces } from '../workspaces/api';
import { WorkspaceSelect } from './WorkspaceSelect';
import { can, PERMISSIONS, type Action } from './permissions';

/**
 * For settings screens of one action (Owner-only ones): picks one of the workspaces where the
 * person may do `action` (a selector when there are several) and renders `children` for it, or,
 * when there is none, why ("Managing secrets needs the Owner role, which you have in none of your workspaces.").
 */
export function OwnedWorkspace({ action, children }: { action: Action; children: (workspaceId: string) => ReactNode }) {
  const workspaces = useWorkspaces();
  const owned = workspaces.data?.filter((w) => can(w.role, action)) ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const workspace = owned.find((w) => w.id === chosen) ?? owned[0];
  if (!workspaces.data) return <p className="muted">Loading…</p>;
  if (!workspace) {
    const { what, role } = PERMISSIONS[action];
    return (
      <p className="help permission-note">
        {what} needs the {role} role, which you have in none of your workspaces.
      </p>
    );
  }
  return (
    <>
      <WorkspaceSelect workspaces={owned} value={workspace.id} onChange={setChosen} />
      {children(workspace.id)}
    </>
  );
}
