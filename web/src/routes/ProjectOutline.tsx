import { useParams } from 'react-router';
import { useProject, useProjectTasks, useWorkspaces } from '../api/queries';
import { Outline } from '../outline/Outline';
import { ProjectActions } from '../projects/ProjectActions';

/** A project's task tree, the product's main view. Viewers and completed projects are read-only. */
export function ProjectOutline() {
  const { projectId = '' } = useParams();
  const project = useProject(projectId);
  const tasks = useProjectTasks(projectId);
  const workspaces = useWorkspaces();
  const role = workspaces.data?.find((w) => w.id === project.data?.workspaceId)?.role;
  const readOnly = role === undefined || role === 'Viewer' || project.data?.completed === true;

  if (project.isError) return <p className="error">{project.error.message}</p>;
  return (
    <section aria-labelledby="project-title" className="project">
      <h1 id="project-title">{project.data?.name ?? 'Project'}</h1>
      {project.data && role !== undefined && role !== 'Viewer' && role !== 'Participant' && <ProjectActions project={project.data} />}
      {project.data?.completed && <p className="muted">This project is completed: restore it to edit.</p>}
      {tasks.isPending && <p className="muted">Loading tasks…</p>}
      {tasks.isError && <p className="error">{tasks.error.message}</p>}
      {tasks.data && <Outline projectId={projectId} tasks={tasks.data} readOnly={readOnly} />}
    </section>
  );
}
