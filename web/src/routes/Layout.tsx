import { useEffect, useState } from 'react';
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { LayoutGrid, Menu, X } from 'lucide-react';
import { api, ApiError } from '../api/client';
import { useMe } from '../profile/api';
import { useWorkspaces } from '../workspaces/api';
import { usePendingApprovals } from '../automations/Approvals';
import { useLiveUpdates } from '../api/live';
import { Sidebar } from './Sidebar';
import { CommandPalette } from '../outline/CommandPalette';
import { useCurrentWorkspace } from './current-workspace';

/**
 * The frame of every signed-in screen. It asks the session probe first (`useMe`) and renders
 * nothing else until it answered: a visitor who is not signed in goes to the sign-in page before
 * any other request is made, so none is refused (a clean console); a signed-in one gets the
 * {@link Shell}.
 */
export function Layout() {
  const me = useMe();
  const location = useLocation();
  if (me.isError && me.error instanceof ApiError && me.error.status === 401) {
    return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  }
  if (me.isPending) return <div className="shell" aria-busy="true" />;
  return <Shell />;
}

/**
 * The signed-in frame: the sidebar (a drawer behind the menu button under 900 px) and the current
 * screen. The drawer closes on navigation, on Escape and on a tap outside it.
 */
function Shell() {
  const me = useMe();
  const workspaces = useWorkspaces();
  const approvals = usePendingApprovals();
  const location = useLocation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [workspaceId, setWorkspaceId] = useCurrentWorkspace(workspaces.data);
  const [drawer, setDrawer] = useState(false);
  useLiveUpdates(me.isSuccess);
  useEffect(() => setDrawer(false), [location.pathname]);
  useEffect(() => {
    if (!drawer) return;
    const close = (e: KeyboardEvent) => e.key === 'Escape' && setDrawer(false);
    window.addEventListener('keydown', close);
    return () => window.removeEventListener('keydown', close);
  }, [drawer]);
  const signOut = async () => {
    await api.POST('/api/v1/auth/sign-out');
    queries.clear();
    navigate('/sign-in', { replace: true });
  };
  return (
    <div className="shell">
      <header className="topbar">
        <button
          type="button"
          className="btn-ghost btn-icon"
          aria-label={drawer ? 'Close navigation' : 'Open navigation'}
          aria-expanded={drawer}
          aria-controls="sidebar"
          onClick={() => setDrawer(!drawer)}
        >
          {drawer ? <X className="icon icon-lg" aria-hidden="true" /> : <Menu className="icon icon-lg" aria-hidden="true" />}
        </button>
        <p className="brand">
          <NavLink to="/">
            <span className="brand-mark" aria-hidden="true">
              <LayoutGrid className="icon icon-sm" />
            </span>
            Taskspace
          </NavLink>
        </p>
      </header>
      {drawer && <div className="overlay" aria-hidden="true" onClick={() => setDrawer(false)} />}
      <Sidebar
        workspaces={workspaces.data ?? []}
        workspaceId={workspaceId}
        onWorkspace={setWorkspaceId}
        approvals={approvals.data?.length ?? 0}
        handle={me.data?.item.handle}
        displayName={me.data?.item.displayName}
        onSignOut={() => void signOut()}
        open={drawer}
      />
      <main className="content" id="main">
        <Outlet context={{ workspaceId, chooseWorkspace: setWorkspaceId }} />
      </main>
      <CommandPalette />
    </div>
  );
}
