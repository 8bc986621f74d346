import { useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { Trash2 } from 'lucide-react';
import { useProject } from '../projects/api';
import { useProjectTasks } from '../tasks/api';
import { useWorkspaces } from '../workspaces/api';
import { ApiError } from '../api/client';
import { NotFound } from '../components/NotFound';
import { Outline } from '../outline/Outline';
import { DeletedTasks } from '../outline/DeletedTasks';
import { ProjectHeader } from '../projects/ProjectHeader';
import { TaskDetails } from '../tasks/TaskDetails';
import { can, PermissionNote } from '../components/permissions';

/**
 * A project's task tree, the product's main view, with the details of one task beside it
 * (`?task=<id>`, so a task's details have a link), or its deleted tasks (Participants and above).
 * Viewers and completed projects are read-only.
 */
export function ProjectOutline() {
  const { projectId = '' } = useParams();
  const project = useProject(projectId);
  const tasks = useProjectTasks(projectId);
  const workspaces = useWorkspaces();
  const role = workspaces.data?.find((w) => w.id === project.data?.workspaceId)?.role;
  const readOnly = !can(role, 'editTasks') || project.data?.completed === true;
  const [search, setSearch] = useSearchParams();
  const selectedId = search.get('task') ?? undefined;
  const selected = selectedId ? tasks.data?.find((t) => t.id === selectedId) : undefined;
  const [showDeleted, setShowDeleted] = useState(false);
  const showTask = (taskId: string | undefined) => {
    if (taskId) setShowDeleted(false);
    setSearch(taskId ? { task: taskId } : {}, { replace: true });
  };
  const mayDelete = can(role, 'editTasks');

  if (project.isError)
    return project.error instanceof ApiError && project.error.status === 404 ? (
      <NotFound what="Project" />
    ) : (
      <p className="error">{project.error.message}</p>
    );
  return (
    <section aria-labelledby="project-title" className="project">
      <ProjectHeader projectId={projectId} project={project.data} role={role}>
        {project.data && mayDelete && (
          <button
            type="button"
            className="secondary deleted-toggle"
            aria-expanded={showDeleted}
            aria-controls={showDeleted ? 'deleted-tasks' : undefined}
            onClick={() => {
              if (!showDeleted) showTask(undefined);
              setShowDeleted(!showDeleted);
            }}
          >
            <Trash2 className="icon" aria-hidden="true" />
            Deleted tasks
          </button>
        )}
      </ProjectHeader>
      {project.data && <PermissionNote role={role} action={can(role, 'editTasks') ? 'manageProjects' : 'editTasks'} />}
      {project.data?.completed && <p className="muted">This project is completed: restore it to edit.</p>}
      {tasks.isPending && <p className="muted">Loading tasks…</p>}
      {tasks.isError && <p className="error">{tasks.error.message}</p>}
      <div className={selected || showDeleted ? 'outline-and-details' : undefined}>
        {tasks.data && (
          <Outline
            projectId={projectId}
            workspaceId={project.data?.workspaceId}
            tasks={tasks.data}
            readOnly={readOnly}
            selectedId={selected?.id}
            onOpenDetails={(id) => showTask(id === selected?.id ? undefined : id)}
          />
        )}
        {showDeleted && project.data && <DeletedTasks projectId={projectId} readOnly={readOnly} onClose={() => setShowDeleted(false)} />}
        {!showDeleted && selected && project.data && (
          <TaskDetails
            key={selected.id}
            projectId={projectId}
            workspaceId={project.data.workspaceId}
            task={selected}
            readOnly={readOnly}
            onClose={() => showTask(undefined)}
          />
        )}
      </div>
    </section>
  );
}
