import type { FastifyPluginAsync } from 'fastify';
import { CONTENT_TYPES, MAX_PROJECT_NAME, type ContentType } from './markdown-import';
import { copyProject, createProjectFromTemplate } from './copy';
import {
  completeProject,
  createProject,
  createWorkspaceProject,
  deleteProject,
  viewProject,
  MY_PROJECTS_SORTS,
  type MyProjectsSort,
  listFolderProjects,
  listFolderTemplates,
  listMyProjects,
  listProjectMembers,
  restoreProject,
  type PageRequest,
} from './service';
import {
  MAX_PAGE_NUMBER,
  MAX_PAGE_SIZE,
  itemEnvelope,
  itemsEnvelope,
  nonEmptyString,
  okOnly,
  pageQuery,
  params,
  searchablePageQuery,
  searchParam,
  responses,
  singleLine,
} from '../../http/schemas';

/** The project item (README "Projects, templates, share links and custom fields"). */
export const projectSchema = {
  type: 'object',
  required: ['id', 'name', 'folderId', 'workspaceId', 'completed', 'completedAt', 'isTemplate', 'createdAt'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    folderId: { type: 'string' },
    workspaceId: { type: 'string' },
    completed: { type: 'boolean' },
    completedAt: { type: 'string', format: 'date-time', nullable: true },
    isTemplate: { type: 'boolean' },
    createdAt: { type: 'string', format: 'date-time' },
  },
} as const;

const member = {
  type: 'object',
  required: ['handle', 'displayName', 'projectMember'],
  properties: { handle: { type: 'string' }, displayName: { type: 'string' }, projectMember: { type: 'boolean' } },
} as const;

/** Largest `content`, in characters (the default body limit is 1 MiB, so larger bodies get 413 first). */
const MAX_CONTENT = 1_048_576;

const contentProperties = {
  contentType: { type: 'string', enum: CONTENT_TYPES },
  content: { type: 'string', maxLength: MAX_CONTENT },
  isTemplate: { type: 'boolean' },
} as const;

interface ContentBody {
  contentType: ContentType;
  content: string;
  isTemplate?: boolean;
}

const one = responses(itemEnvelope(projectSchema));
const many = responses(itemsEnvelope(projectSchema));
const tags = ['projects'];

/**
 * Project routes (spec 4.2 except the blocks/tasks lists, the folder project lists of 4.3,
 * `GET /me/projects`), plus the fields and share-link sub-plugins. Handlers are thin: the
 * domain functions check access and run the transactions.
 */
export const projectsRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;

  app.get<{ Params: { projectId: string } }>(
    '/projects/:projectId',
    { schema: { tags, summary: 'Get a project', params: params('projectId'), response: one } },
    async (request) => ({ ok: true, item: await svc.store.run(viewProject(svc, request.actor, request.params.projectId)) }),
  );

  app.post<{ Body: ContentBody & { folderId: string } }>(
    '/projects',
    {
      schema: {
        tags,
        summary: 'Create a project from markdown or plain text',
        description: 'The first heading (or first line of plain text) names the project; list items become tasks.',
        body: {
          type: 'object',
          required: ['folderId', 'contentType', 'content'],
          additionalProperties: false,
          properties: { folderId: nonEmptyString, ...contentProperties },
        },
        response: one,
      },
    },
    async (request) => {
      const { folderId, ...input } = request.body;
      return { ok: true, item: await svc.store.run(createProject(svc, request.actor, folderId, input)) };
    },
  );

  app.post<{ Params: { workspaceId: string }; Body: ContentBody }>(
    '/workspaces/:workspaceId/projects',
    {
      schema: {
        tags,
        summary: "Create a project in a workspace's home folder",
        params: params('workspaceId'),
        body: { type: 'object', required: ['contentType', 'content'], additionalProperties: false, properties: contentProperties },
        response: one,
      },
    },
    async (request) => ({
      ok: true,
      item: await svc.store.run(createWorkspaceProject(svc, request.actor, request.params.workspaceId, request.body)),
    }),
  );

  app.post<{ Body: { folderId: string; templateId: string } }>(
    '/projects/from-template',
    {
      schema: {
        tags,
        summary: 'Create a project from a template',
        body: {
          type: 'object',
          required: ['folderId', 'templateId'],
          additionalProperties: false,
          properties: { folderId: nonEmptyString, templateId: nonEmptyString },
        },
        response: one,
      },
    },
    async (request) => ({ ok: true, item: await svc.store.run(createProjectFromTemplate(svc, request.actor, request.body)) }),
  );

  app.post<{ Params: { projectId: string }; Body: { folderId: string; projectTitle?: string; isTemplate?: boolean } }>(
    '/projects/:projectId/copy',
    {
      schema: {
        tags,
        summary: 'Copy a project with its whole tree into a folder',
        params: params('projectId'),
        body: {
          type: 'object',
          required: ['folderId'],
          additionalProperties: false,
          properties: { folderId: nonEmptyString, projectTitle: singleLine(MAX_PROJECT_NAME), isTemplate: { type: 'boolean' } },
        },
        response: one,
      },
    },
    async (request) => ({ ok: true, item: await svc.store.run(copyProject(svc, request.actor, request.params.projectId, request.body)) }),
  );

  app.delete<{ Params: { projectId: string } }>(
    '/projects/:projectId',
    { schema: { tags, summary: 'Delete a project with its tasks', params: params('projectId'), response: responses(okOnly) } },
    async (request) => {
      await svc.store.run(deleteProject(svc, request.actor, request.params.projectId));
      return { ok: true };
    },
  );

  app.post<{ Params: { projectId: string } }>(
    '/projects/:projectId/complete',
    { schema: { tags, summary: 'Mark a project completed', params: params('projectId'), response: one } },
    async (request) => ({ ok: true, item: await svc.store.run(completeProject(svc, request.actor, request.params.projectId)) }),
  );

  app.post<{ Params: { projectId: string } }>(
    '/projects/:projectId/restore',
    { schema: { tags, summary: 'Restore a completed project', params: params('projectId'), response: one } },
    async (request) => ({ ok: true, item: await svc.store.run(restoreProject(svc, request.actor, request.params.projectId)) }),
  );

  app.get<{ Params: { projectId: string }; Querystring: PageRequest }>(
    '/projects/:projectId/members',
    {
      schema: {
        tags,
        summary: 'People with access to a project',
        params: params('projectId'),
        querystring: pageQuery(20),
        response: responses(itemsEnvelope(member)),
      },
    },
    async (request) => ({
      ok: true,
      items: await svc.store.run(listProjectMembers(svc, request.actor, request.params.projectId, request.query)),
    }),
  );

  const myProjectsQuery = searchablePageQuery(100);
  app.get<{ Querystring: PageRequest & { search?: string; sort: MyProjectsSort } }>(
    '/me/projects',
    {
      schema: {
        tags,
        summary: "The caller's projects across their workspaces (templates excluded); `search` filters by name",
        description:
          '`sort`: `viewed-desc` (default) lists the projects the caller opened most recently (`GET /projects/{id}`) first, ' +
          'then those never opened, newest first; `viewed-asc` is the exact reverse.',
        querystring: {
          ...myProjectsQuery,
          properties: { ...myProjectsQuery.properties, sort: { type: 'string', enum: MY_PROJECTS_SORTS, default: 'viewed-desc' } },
        },
        response: many,
      },
    },
    async (request) => {
      const { search, sort, ...page } = request.query;
      return { ok: true, items: await svc.store.run(listMyProjects(svc, request.actor, page, search, sort)) };
    },
  );

  app.get<{ Params: { folderId: string }; Querystring: { limit?: number; page: number; search?: string } }>(
    '/folders/:folderId/projects',
    {
      schema: {
        tags,
        summary: "A folder's projects (templates excluded); all of them unless limit is given; `search` filters by name",
        params: params('folderId'),
        querystring: {
          type: 'object',
          properties: {
            limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE },
            page: { type: 'integer', minimum: 1, maximum: MAX_PAGE_NUMBER, default: 1 },
            search: searchParam,
          },
        },
        response: many,
      },
    },
    async (request) => {
      const { limit, page, search } = request.query;
      const paging = limit === undefined ? undefined : { limit, page };
      return { ok: true, items: await svc.store.run(listFolderProjects(svc, request.actor, request.params.folderId, paging, search)) };
    },
  );

  app.get<{ Params: { folderId: string }; Querystring: PageRequest }>(
    '/folders/:folderId/project-templates',
    {
      schema: {
        tags,
        summary: "A folder's project templates",
        params: params('folderId'),
        querystring: pageQuery(20),
        response: many,
      },
    },
    async (request) => ({
      ok: true,
      items: await svc.store.run(listFolderTemplates(svc, request.actor, request.params.folderId, request.query)),
    }),
  );
};
