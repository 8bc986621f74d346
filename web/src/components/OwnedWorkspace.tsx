import { useState, type ReactNode } from 'react';
import { useWorkspaces } from '../api/queries';
import { WorkspaceSelect } from './WorkspaceSelect';

/**
 * For Owner-only settings screens: picks one of the workspaces the person owns (a selector when
 * there are several) and renders `children` for it, or `notOwner` when they own none.
 */
export function OwnedWorkspace({ notOwner, children }: { notOwner: string; children: (workspaceId: string) => ReactNode }) {
  const workspaces = useWorkspaces();
  const owned = workspaces.data?.filter((w) => w.role === 'Owner') ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const workspace = owned.find((w) => w.id === chosen) ?? owned[0];
  if (!workspaces.data) return <p className="muted">Loading…</p>;
  if (!workspace) return <p className="muted">{notOwner}</p>;
  return (
    <>
      <WorkspaceSelect workspaces={owned} value={workspace.id} onChange={setChosen} />
      {children(workspace.id)}
    </>
  );
}
