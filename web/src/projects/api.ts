/**
 * The projects feature's data (docs/architecture.md "Web data access"): the queries as TanStack
 * Query `queryOptions` (keys from {@link projectKeys}) and the writes the project screens make.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { projectKeys } from '../api/keys';
import type { paths } from '../api/schema';

/** A project as `GET /projects/{projectId}` returns it. */
export type ProjectItem = paths['/api/v1/projects/{projectId}']['get']['responses'][200]['content']['application/json']['item'];

/** The people present on a project, as `GET /projects/{projectId}/presence` lists them and `presence` events carry them. */
export type PresentPeople = paths['/api/v1/projects/{projectId}/presence']['get']['responses'][200]['content']['application/json']['items'];

/** A field definition as the fields list returns it. */
export type Field = paths['/api/v1/projects/{projectId}/fields']['get']['responses'][200]['content']['application/json']['items'][number];

const at = (projectId: string) => ({ params: { path: { projectId } } });

/** The projects of a folder (templates excluded); nothing is read while `folderId` is undefined. */
export const folderProjectsQuery = (folderId: string | undefined) =>
  queryOptions({
    queryKey: projectKeys.inFolder(folderId),
    enabled: folderId !== undefined,
    queryFn: async () => unwrap(await api.GET('/api/v1/folders/{folderId}/projects', { params: { path: { folderId: folderId! } } })).items,
  });

/** One project; nothing is read while `projectId` is undefined. */
export const projectQuery = (projectId: string | undefined) =>
  queryOptions({
    queryKey: projectKeys.one(projectId),
    enabled: projectId !== undefined,
    queryFn: async () => unwrap(await api.GET('/api/v1/projects/{projectId}', at(projectId!))).item,
  });

/** The templates of a folder (the first 100). */
export const templatesQuery = (folderId: string) =>
  queryOptions({
    queryKey: projectKeys.templates(folderId),
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/folders/{folderId}/project-templates', { params: { path: { folderId }, query: { limit: 100 } } }))
        .items,
  });

/** The project's share link, null while it has none; read only when `enabled` (Collaborators). */
export const shareLinkQuery = (projectId: string, enabled: boolean) =>
  queryOptions({
    queryKey: projectKeys.share(projectId),
    retry: false,
    enabled,
    queryFn: async () => unwrap(await api.GET('/api/v1/projects/{projectId}/shareLink', at(projectId))).item ?? null,
  });

/** The project's custom field definitions, in their order. */
export const fieldsQuery = (projectId: string) =>
  queryOptions({
    queryKey: projectKeys.fields(projectId),
    queryFn: async () => unwrap(await api.GET('/api/v1/projects/{projectId}/fields', at(projectId))).items,
  });

/**
 * The people who have project `projectId` open (docs "Web app", "Presence"): read once, then kept
 * current by the live stream's `presence` events (`live.ts` writes this query's data).
 */
export const presenceQuery = (projectId: string) =>
  queryOptions({
    queryKey: projectKeys.presence(projectId),
    queryFn: async (): Promise<PresentPeople> => unwrap(await api.GET('/api/v1/projects/{projectId}/presence', at(projectId))).items,
  });

/** The caller's projects across workspaces (the first 100), for the command palette; read only when `enabled`. */
export const paletteProjectsQuery = (enabled: boolean) =>
  queryOptions({
    queryKey: projectKeys.palette(),
    enabled,
    queryFn: async () => unwrap(await api.GET('/api/v1/me/projects', { params: { query: { limit: 100 } } })).items,
  });

/** What the project menu does through the API. */
export type ProjectAction = 'copy' | 'template' | 'complete' | 'restore' | 'share' | 'unshare' | 'delete';

/**
 * Runs one action of the project menu on `project`: copy (as "Copy of …"), save as template,
 * complete, restore, share, unshare, delete. @returns the copy for `copy` and `template`.
 * @throws ApiError from the service.
 */
export async function projectAction(project: Pick<ProjectItem, 'id' | 'name' | 'folderId'>, action: ProjectAction): Promise<unknown> {
  const path = at(project.id);
  switch (action) {
    case 'template':
    case 'copy': {
      const { folderId, name } = project;
      const body =
        action === 'template'
          ? { folderId, projectTitle: name, isTemplate: true }
          : { folderId, projectTitle: `Copy of ${name}`.slice(0, 200) };
      return unwrap(await api.POST('/api/v1/projects/{projectId}/copy', { ...path, body })).item;
    }
    case 'complete':
      return unwrap(await api.POST('/api/v1/projects/{projectId}/complete', path)).item;
    case 'restore':
      return unwrap(await api.POST('/api/v1/projects/{projectId}/restore', path)).item;
    case 'share':
      return unwrap(await api.PUT('/api/v1/projects/{projectId}/shareLink', path));
    case 'unshare':
      return unwrap(await api.DELETE('/api/v1/projects/{projectId}/shareLink', path));
    case 'delete':
      return unwrap(await api.DELETE('/api/v1/projects/{projectId}', path));
  }
}

/**
 * Creates a project in a folder: from a template, or from markdown (an empty project is the
 * markdown `# name`). @throws ApiError from the service.
 */
export async function createProject(folderId: string, from: { templateId: string } | { markdown: string }): Promise<{ id: string }> {
  if ('templateId' in from) return unwrap(await api.POST('/api/v1/projects/from-template', { body: { folderId, ...from } })).item;
  return unwrap(await api.POST('/api/v1/projects', { body: { folderId, contentType: 'text/markdown', content: from.markdown } })).item;
}

/** A change of a project's name or place: rename it, move it, make a folder and move it there, rename its folder. */
export type PlaceChange =
  | { kind: 'rename'; name: string }
  | { kind: 'move'; folderId: string }
  | { kind: 'folder'; name: string }
  | { kind: 'rename-folder'; name: string };

/** Applies a {@link PlaceChange} to `project`. @throws ApiError from the service. */
export async function changePlace(project: Pick<ProjectItem, 'id' | 'folderId' | 'workspaceId'>, op: PlaceChange): Promise<unknown> {
  const patch = async (body: { name?: string; folderId?: string }) =>
    unwrap(await api.PATCH('/api/v1/projects/{projectId}', { ...at(project.id), body }));
  switch (op.kind) {
    case 'rename':
      return patch({ name: op.name });
    case 'move':
      return patch({ folderId: op.folderId });
    case 'folder': {
      const made = unwrap(
        await api.POST('/api/v1/workspaces/{workspaceId}/folders', {
          params: { path: { workspaceId: project.workspaceId } },
          body: { name: op.name },
        }),
      ).item;
      return patch({ folderId: made.id });
    }
    case 'rename-folder':
      return unwrap(
        await api.PATCH('/api/v1/folders/{folderId}', { params: { path: { folderId: project.folderId } }, body: { name: op.name } }),
      );
  }
}

/** A change of a project's custom fields: define one, rename one, reorder them, delete one. */
export type FieldChange =
  | { kind: 'define'; name: string; type: string; options: string[] }
  | { kind: 'rename'; id: string; name: string }
  | { kind: 'order'; ids: string[] }
  | { kind: 'delete'; id: string };

/** Applies a {@link FieldChange} to the fields of `projectId`. @throws ApiError from the service. */
export async function changeFields(projectId: string, op: FieldChange): Promise<unknown> {
  const field = (id: string) => ({ params: { path: { projectId, fieldId: id } } });
  switch (op.kind) {
    case 'define': {
      const body = { name: op.name, type: op.type as 'text', ...(op.type === 'select' ? { options: op.options } : {}) };
      return unwrap(await api.POST('/api/v1/projects/{projectId}/fields', { ...at(projectId), body }));
    }
    case 'rename':
      return unwrap(await api.PATCH('/api/v1/projects/{projectId}/fields/{fieldId}', { ...field(op.id), body: { name: op.name } }));
    case 'order':
      return unwrap(await api.PUT('/api/v1/projects/{projectId}/fields/order', { ...at(projectId), body: { fieldIds: op.ids } }));
    case 'delete':
      return unwrap(await api.DELETE('/api/v1/projects/{projectId}/fields/{fieldId}', field(op.id)));
  }
}

/** The projects of a folder ({@link folderProjectsQuery}). */
export function useFolderProjects(folderId: string | undefined) {
  return useQuery(folderProjectsQuery(folderId));
}

/** One project ({@link projectQuery}). */
export function useProject(projectId: string) {
  return useQuery(projectQuery(projectId));
}
