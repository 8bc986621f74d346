import { NavLink } from 'react-router';
import type { LucideIcon } from 'lucide-react';
import {
  AppWindow,
  Bot,
  Building2,
  ChevronRight,
  FileText,
  Folder,
  History,
  Image,
  Inbox,
  KeyRound,
  LayoutGrid,
  LogOut,
  Plug,
  Plus,
  UserCog,
  Users,
  Webhook,
  Zap,
} from 'lucide-react';
import { useFolderProjects } from '../projects/api';
import { useFolders } from '../workspaces/api';
import { Avatar } from '../components/Avatar';
import { can } from '../components/permissions';

/** One navigation link with its icon; `end` matches the path exactly. */
function NavItem({
  to,
  icon: Icon,
  label,
  end,
  extra,
}: {
  to: string;
  icon: LucideIcon;
  label: string;
  end?: boolean;
  extra?: React.ReactNode;
}) {
  return (
    <li>
      <NavLink to={to} end={end} className="nav-item">
        <Icon className="icon" aria-hidden="true" />
        <span className="label-text">{label}</span>
        {extra}
      </NavLink>
    </li>
  );
}

/** A folder's projects, and New project for those who may create one (Collaborators and above). */
function FolderProjects({ folderId, role }: { folderId: string; role: string | undefined }) {
  const projects = useFolderProjects(folderId);
  if (projects.isPending) return <p className="nav-item subtle">Loading…</p>;
  if (projects.isError) return <p className="nav-item error">{projects.error.message}</p>;
  return (
    <ul className="nav-list">
      {projects.data.map((p) => (
        <NavItem key={p.id} to={`/projects/${p.id}`} icon={FileText} label={p.name} />
      ))}
      {can(role, 'manageProjects') && (
        <li>
          <NavLink className="nav-item subtle" to={`/folders/${folderId}/new-project`}>
            <Plus className="icon" aria-hidden="true" />
            <span className="label-text">New project</span>
          </NavLink>
        </li>
      )}
    </ul>
  );
}

/** The Projects section of one workspace: its home folder's projects, then each folder (collapsible). */
function Projects({ workspaceId, role }: { workspaceId: string; role: string | undefined }) {
  const folders = useFolders(workspaceId);
  const home = folders.data?.find((f) => f.id === workspaceId);
  const others = folders.data?.filter((f) => f.id !== workspaceId) ?? [];
  return (
    <section className="nav-section" aria-labelledby="nav-projects">
      <h2 className="nav-heading" id="nav-projects">
        Projects
      </h2>
      {home && <FolderProjects folderId={home.id} role={role} />}
      {others.map((f) => (
        <details key={f.id}>
          <summary>
            <ChevronRight className="icon icon-sm chevron" aria-hidden="true" />
            <Folder className="icon" aria-hidden="true" />
            <span className="label-text">{f.name}</span>
          </summary>
          <FolderProjects folderId={f.id} role={role} />
        </details>
      ))}
    </section>
  );
}

/** The workspace the sidebar shows, and a switcher among the person's workspaces when there are several. */
function WorkspaceSwitcher({
  workspaces,
  current,
  onWorkspace,
}: {
  workspaces: readonly { id: string; name: string }[];
  current: { id: string; name: string };
  onWorkspace: (id: string) => void;
}) {
  return (
    <section aria-label={`Workspace ${current.name}`}>
      {workspaces.length > 1 ? (
        <label className="workspace-switcher">
          <span className="visually-hidden">Workspace</span>
          <select value={current.id} onChange={(e) => onWorkspace(e.target.value)}>
            {workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <p className="nav-heading">{current.name}</p>
      )}
    </section>
  );
}

/** Who is signed in (a link to the profile) and Sign out. */
function UserMenu({ handle, displayName, onSignOut }: { handle: string; displayName: string | undefined; onSignOut: () => void }) {
  return (
    <div className="user-menu">
      <NavLink to="/profile" title="Your profile">
        <Avatar name={displayName || handle} />
        <span className="label-text small">Signed in as @{handle}</span>
      </NavLink>
      <button type="button" className="btn-ghost btn-icon" aria-label="Sign out" title="Sign out" onClick={onSignOut}>
        <LogOut className="icon" aria-hidden="true" />
      </button>
    </div>
  );
}

/**
 * The sidebar: workspace switcher, Projects of the chosen workspace, the feature screens with icons,
 * Settings grouped at the bottom and the user menu. The same markup is the drawer on phones.
 */
export function Sidebar({
  workspaces,
  workspaceId,
  onWorkspace,
  approvals,
  handle,
  displayName,
  onSignOut,
  open,
}: {
  workspaces: readonly { id: string; name: string; role: string }[];
  workspaceId: string | undefined;
  onWorkspace: (id: string) => void;
  approvals: number;
  handle: string | undefined;
  displayName: string | undefined;
  onSignOut: () => void;
  open: boolean;
}) {
  const current = workspaces.find((w) => w.id === workspaceId);
  return (
    <nav id="sidebar" className={open ? 'sidebar open' : 'sidebar'} aria-label="Main">
      <div className="sidebar-head">
        <p className="brand">
          <NavLink to="/">
            <span className="brand-mark" aria-hidden="true">
              <LayoutGrid className="icon icon-sm" />
            </span>
            Taskspace
          </NavLink>
        </p>
        {current && <WorkspaceSwitcher workspaces={workspaces} current={current} onWorkspace={onWorkspace} />}
        <NavLink className="nav-item subtle" to="/workspaces/new" end>
          <Plus className="icon" aria-hidden="true" />
          <span className="label-text">New workspace</span>
        </NavLink>
      </div>
      {workspaceId && <Projects workspaceId={workspaceId} role={current?.role} />}
      <section className="nav-section" aria-labelledby="nav-work">
        <h2 className="nav-heading" id="nav-work">
          Automate
        </h2>
        <ul className="nav-list">
          <NavItem to="/automations" icon={Zap} label="Automations" end />
          <NavItem to="/runs" icon={History} label="Runs" />
          <NavItem
            to="/approvals"
            icon={Inbox}
            label="Approvals"
            extra={
              approvals > 0 ? (
                <span className="count" aria-label={`${approvals} waiting`}>
                  {approvals}
                </span>
              ) : null
            }
          />
          <NavItem to="/agents" icon={Bot} label="Agents" />
          <NavItem to="/media" icon={Image} label="Media" />
        </ul>
      </section>
      <div className="sidebar-foot">
        <section className="nav-section" aria-labelledby="nav-settings">
          <h2 className="nav-heading" id="nav-settings">
            Settings
          </h2>
          <ul className="nav-list">
            <NavItem to="/settings/workspace" icon={Building2} label="Workspace" />
            <NavItem to="/settings/members" icon={Users} label="Members" />
            <NavItem to="/settings/webhooks" icon={Webhook} label="Webhooks" />
            <NavItem to="/settings/secrets" icon={KeyRound} label="Secrets" />
            <NavItem to="/settings/connections" icon={Plug} label="Connections" />
            <NavItem to="/settings/oauth-apps" icon={AppWindow} label="OAuth apps" />
            <NavItem to="/settings/account" icon={UserCog} label="My account" />
          </ul>
        </section>
        {handle && <UserMenu handle={handle} displayName={displayName} onSignOut={onSignOut} />}
      </div>
    </nav>
  );
}
