import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../api/client';
import { useFolderProjects, useFolders, useMe, useWorkspaces } from '../api/queries';
import { usePendingApprovals } from '../automations/Approvals';
import { useLiveUpdates } from '../api/live';

function FolderProjects({ folderId }: { folderId: string }) {
  const projects = useFolderProjects(folderId);
  if (projects.isPending) return <p className="muted">Loading…</p>;
  if (projects.isError) return <p className="error">{projects.error.message}</p>;
  if (projects.data.length === 0) return <p className="muted">No projects</p>;
  return (
    <ul>
      {projects.data.map((p) => (
        <li key={p.id}>
          <NavLink to={`/projects/${p.id}`}>{p.name}</NavLink>
        </li>
      ))}
    </ul>
  );
}

function WorkspaceTree({ workspaceId, name }: { workspaceId: string; name: string }) {
  const folders = useFolders(workspaceId);
  return (
    <section aria-label={`Workspace ${name}`}>
      <h2>{name}</h2>
      {folders.data?.map((f) => (
        <details key={f.id} open={f.id === workspaceId}>
          <summary>{f.id === workspaceId ? 'Home' : f.name}</summary>
          <FolderProjects folderId={f.id} />
          <NavLink className="small" to={`/folders/${f.id}/new-project`}>
            + New project
          </NavLink>
        </details>
      ))}
    </section>
  );
}

/** The signed-in frame: a sidebar of workspaces, folders and projects, and the current screen. */
export function Layout() {
  const me = useMe();
  const workspaces = useWorkspaces();
  const approvals = usePendingApprovals();
  const location = useLocation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  useLiveUpdates(me.isSuccess);
  const signOut = async () => {
    await api.POST('/api/v1/auth/sign-out');
    queries.clear();
    navigate('/sign-in', { replace: true });
  };
  if (me.isError && me.error instanceof ApiError && me.error.status === 401) {
    return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  }
  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Workspaces">
        <p className="brand">
          <NavLink to="/">Taskspace</NavLink>
        </p>
        <ul className="nav">
          <li>
            <NavLink to="/automations" end>
              Automations
            </NavLink>
          </li>
          <li>
            <NavLink to="/runs">Runs</NavLink>
          </li>
          <li>
            <NavLink to="/agents">Agents</NavLink>
          </li>
          <li>
            <NavLink to="/media">Media</NavLink>
          </li>
          <li>
            <NavLink to="/settings/webhooks">Webhooks</NavLink>
          </li>
          <li>
            <NavLink to="/settings/members">Members</NavLink>
          </li>
          <li>
            <NavLink to="/settings/secrets">Secrets</NavLink>
          </li>
          <li>
            <NavLink to="/settings/oauth-apps">OAuth apps</NavLink>
          </li>
          <li>
            <NavLink to="/approvals">
              Approvals
              {approvals.data && approvals.data.length > 0 ? (
                <span className="count" aria-label={`${approvals.data.length} waiting`}>
                  {approvals.data.length}
                </span>
              ) : null}
            </NavLink>
          </li>
        </ul>
        {workspaces.data?.map((w) => (
          <WorkspaceTree key={w.id} workspaceId={w.id} name={w.name} />
        ))}
        <div className="account">
          {me.data?.item.handle && (
            <p className="muted small">
              Signed in as <NavLink to="/settings/account">@{me.data.item.handle}</NavLink>
            </p>
          )}
          <button type="button" className="secondary" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </nav>
      <main className="content">
        <Outlet />
      </main>
    </div>
  );
}
