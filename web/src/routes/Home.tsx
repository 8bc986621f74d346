import { Link, useOutletContext } from 'react-router';
import { FileText, FolderKanban, Plus } from 'lucide-react';
import { useMe } from '../profile/api';
import { useFolderProjects } from '../projects/api';
import { EmptyState } from '../components/EmptyState';
import { can, PermissionNote, useRoleIn } from '../components/permissions';

/** The landing screen after sign-in: the projects of the current workspace, or how to make the first one. */
export function Home() {
  const me = useMe();
  const { workspaceId } = useOutletContext<{ workspaceId: string | undefined }>();
  const projects = useFolderProjects(workspaceId);
  const role = useRoleIn(workspaceId);
  // Only those who may create a project are offered to; the others read why (under the empty state).
  const newProject = workspaceId && can(role, 'manageProjects') ? `/folders/${workspaceId}/new-project` : undefined;
  return (
    <section>
      <div className="page-header">
        <div>
          <h1>{me.data?.item.displayName ? `Welcome, ${me.data.item.displayName}` : 'Welcome'}</h1>
          <p className="muted">Your projects, automations and agents in one place.</p>
        </div>
        {newProject && projects.data && projects.data.length > 0 && (
          <Link className="btn btn-primary" to={newProject}>
            <Plus className="icon" aria-hidden="true" />
            New project
          </Link>
        )}
      </div>
      {projects.isError && <p className="error">{projects.error.message}</p>}
      {projects.data && projects.data.length === 0 && (
        <EmptyState
          icon={FolderKanban}
          title="No projects yet"
          action={
            newProject ? (
              <Link className="btn btn-primary" to={newProject}>
                <Plus className="icon" aria-hidden="true" />
                Create a project
              </Link>
            ) : (
              <PermissionNote role={role} action="manageProjects" />
            )
          }
        >
          A project is an outline of tasks you can share, assign and automate. Start from scratch or paste a markdown list.
        </EmptyState>
      )}
      {projects.data && projects.data.length > 0 && (
        <ul className="card-grid" aria-label="Projects">
          {projects.data.map((p) => (
            <li key={p.id}>
              <Link className="card project-card" to={`/projects/${p.id}`}>
                <FileText className="icon icon-lg" aria-hidden="true" />
                <span>{p.name}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
