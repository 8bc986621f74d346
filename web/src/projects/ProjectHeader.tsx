import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CircleCheck, Copy, FileStack, Link2, ListPlus, PencilLine, RotateCcw, Trash2, Unlink } from 'lucide-react';
import { ApiError } from '../api/client';
import { projectKeys } from '../api/keys';
import { projectAction, shareLinkQuery, type ProjectAction, type ProjectItem } from './api';
import { ActionMenu, type MenuAction } from '../components/ActionMenu';
import { useConfirmation } from '../components/ConfirmDialog';
import { can } from '../components/permissions';
import { FieldManager } from './FieldManager';
import { PresenceAvatars } from './PresenceAvatars';
import { ProjectPlace } from './ProjectPlace';

/** A project as the API returns it (the fields used here). */
type Project = Pick<ProjectItem, 'id' | 'name' | 'folderId' | 'workspaceId' | 'completed'>;

/** The panel the menu opened under the header, if any. */
type Panel = 'place' | 'fields' | null;

/**
 * A project's header (docs "Web app", "Projects"): its name, who else is here, `children` (the
 * controls every editor has, such as Deleted tasks) and, for Collaborators and above, the
 * "Project actions" menu: rename or move, custom fields, copy, save as template, share link,
 * complete or restore, delete (after a confirming dialog). Below it, the panel or the read-only
 * link the menu opened, and what went wrong.
 */
export function ProjectHeader({
  projectId,
  project,
  role,
  children,
}: {
  projectId: string;
  project: Project | undefined;
  role: string | undefined;
  children?: ReactNode;
}) {
  const queries = useQueryClient();
  const navigate = useNavigate();
  const manages = project !== undefined && can(role, 'manageProjects');
  const [error, setError] = useState<string | null>(null);
  const [panel, setPanel] = useState<Panel>(null);
  const confirmation = useConfirmation();
  const [notice, setNotice] = useState<string | null>(null);
  const share = useQuery(shareLinkQuery(projectId, manages));
  const act = useMutation({
    mutationFn: async (action: ProjectAction) => {
      // The menu is shown only once the project is loaded.
      if (!project) throw new Error('the project is not loaded yet');
      return projectAction(project, action);
    },
    onMutate: () => {
      setError(null);
      setNotice(null);
    },
    onError: (e) => setError(e instanceof ApiError ? e.message : 'Something went wrong'),
    onSuccess: (result, action) => {
      void queries.invalidateQueries({ queryKey: projectKeys.inFolder(project?.folderId) });
      if (action === 'delete') {
        // Gone: its own queries are left to expire, since asking again would only earn 404s.
        navigate('/');
        return;
      }
      void queries.invalidateQueries({ queryKey: projectKeys.one(projectId) });
      void queries.invalidateQueries({ queryKey: projectKeys.share(projectId) });
      if (action === 'copy' && result && typeof result === 'object' && 'id' in result) navigate(`/projects/${String(result.id)}`);
      if (action === 'template') {
        void queries.invalidateQueries({ queryKey: projectKeys.templates(project?.folderId) });
        setNotice(`Saved “${project?.name ?? ''}” as a template: pick it under New project in this folder.`);
      }
    },
  });
  const toggle = (next: Exclude<Panel, null>) => setPanel(panel === next ? null : next);
  const actions: MenuAction[] = project ? projectMenu(project, share.data != null, toggle, act.mutate, confirmation.ask) : [];
  return (
    <>
      <div className="project-header">
        <h1 id="project-title">{project?.name ?? 'Project'}</h1>
        <div className="project-header-side">
          {project && <PresenceAvatars projectId={projectId} />}
          {children}
          {manages && <ActionMenu label="Project actions" actions={actions} />}
        </div>
      </div>
      {manages && share.data && (
        <p className="small">
          Read-only link: <a href={share.data.viewUrl}>{share.data.viewUrl}</a>
        </p>
      )}
      {notice && (
        <p role="status" className="small">
          {notice}
        </p>
      )}
      {manages && panel === 'place' && <ProjectPlace key={`${project.name}:${project.folderId}`} project={project} />}
      {manages && panel === 'fields' && <FieldManager projectId={projectId} />}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {confirmation.dialog}
    </>
  );
}

/**
 * The "Project actions" menu of `project`: rename or move, custom fields (each toggles its panel),
 * copy, save as template, share link or revoke it (`shared`), complete or restore, delete (asked
 * through `ask` first).
 */
function projectMenu(
  project: Project,
  shared: boolean,
  toggle: (panel: Exclude<Panel, null>) => void,
  act: (action: ProjectAction) => void,
  ask: ReturnType<typeof useConfirmation>['ask'],
): MenuAction[] {
  return [
    { label: 'Rename or move', icon: <PencilLine className="icon" aria-hidden="true" />, onSelect: () => toggle('place') },
    { label: 'Custom fields', icon: <ListPlus className="icon" aria-hidden="true" />, onSelect: () => toggle('fields') },
    { label: 'Copy', icon: <Copy className="icon" aria-hidden="true" />, onSelect: () => act('copy'), separated: true },
    { label: 'Save as template', icon: <FileStack className="icon" aria-hidden="true" />, onSelect: () => act('template') },
    shared
      ? { label: 'Revoke share link', icon: <Unlink className="icon" aria-hidden="true" />, onSelect: () => act('unshare') }
      : {
          label: 'Share link',
          icon: <Link2 className="icon" aria-hidden="true" />,
          onSelect: () => act('share'),
          disabled: project.completed,
          title: project.completed ? 'A completed project cannot be shared: restore it first.' : undefined,
        },
    project.completed
      ? {
          label: 'Restore',
          icon: <RotateCcw className="icon" aria-hidden="true" />,
          onSelect: () => act('restore'),
          separated: true,
        }
      : {
          label: 'Complete project',
          icon: <CircleCheck className="icon" aria-hidden="true" />,
          onSelect: () => act('complete'),
          separated: true,
        },
    {
      label: 'Delete project',
      icon: <Trash2 className="icon" aria-hidden="true" />,
      danger: true,
      onSelect: () =>
        ask({
          title: `Delete “${project.name}”?`,
          body: 'Its tasks, custom fields and share link are deleted with it. This cannot be undone.',
          confirmLabel: 'Delete project',
          onConfirm: () => act('delete'),
        }),
    },
  ];
}
