import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { copyProject, createProjectFromTemplate } from './copy';
import {
  completeProject,
  createProject,
  createWorkspaceProject,
  deleteProject,
  viewProject,
  listFolderProjects,
  listFolderTemplates,
  listMyProjects,
  listProjectMembers,
  restoreProject,
} from './service';
import {
  CopyProjectBody,
  CreateProjectBody,
  CreateWorkspaceProjectBody,
  FromTemplateBody,
  folderParams,
  folderProjectsQuery,
  membersQuery,
  membersResponses,
  myProjectsQuery,
  okResponses,
  projectParams,
  projectResponses,
  projectsResponses,
  templatesQuery,
  workspaceParams,
} from './schemas';

const one = projectResponses;
const many = projectsResponses;
const tags = ['projects'];

/**
 * Project routes (spec 4.2 except the blocks/tasks lists, the folder project lists of 4.3,
 * `GET /me/projects`), plus the fields and share-link sub-plugins. Handlers are thin: the
 * domain functions check access and run the transactions.
 */
export const projectsRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;

  app.get(
    '/projects/:projectId',
    { schema: { tags, summary: 'Get a project', params: projectParams, response: one } },
    async (request) => ({ ok: true, item: await svc.store.run(viewProject(svc, request.actor, request.params.projectId)) }),
  );

  app.post(
    '/projects',
    {
      schema: {
        tags,
        summary: 'Create a project from markdown or plain text',
        description: 'The first heading (or first line of plain text) names the project; list items become tasks.',
        body: CreateProjectBody,
        response: one,
      },
    },
    async (request) => {
      const { folderId, ...input } = request.body;
      return { ok: true, item: await svc.store.run(createProject(svc, request.actor, folderId, input)) };
    },
  );

  app.post(
    '/workspaces/:workspaceId/projects',
    {
      schema: {
        tags,
        summary: "Create a project in a workspace's home folder",
        params: workspaceParams,
        body: CreateWorkspaceProjectBody,
        response: one,
      },
    },
    async (request) => ({
      ok: true,
      item: await svc.store.run(createWorkspaceProject(svc, request.actor, request.params.workspaceId, request.body)),
    }),
  );

  app.post(
    '/projects/from-template',
    {
      schema: {
        tags,
        summary: 'Create a project from a template',
        body: FromTemplateBody,
        response: one,
      },
    },
    async (request) => ({ ok: true, item: await svc.store.run(createProjectFromTemplate(svc, request.actor, request.body)) }),
  );

  app.post(
    '/projects/:projectId/copy',
    {
      schema: {
        tags,
        summary: 'Copy a project with its whole tree into a folder',
        params: projectParams,
        body: CopyProjectBody,
        response: one,
      },
    },
    async (request) => ({ ok: true, item: await svc.store.run(copyProject(svc, request.actor, request.params.projectId, request.body)) }),
  );

  app.delete(
    '/projects/:projectId',
    { schema: { tags, summary: 'Delete a project with its tasks', params: projectParams, response: okResponses } },
    async (request) => {
      await svc.store.run(deleteProject(svc, request.actor, request.params.projectId));
      return { ok: true };
    },
  );

  app.post(
    '/projects/:projectId/complete',
    { schema: { tags, summary: 'Mark a project completed', params: projectParams, response: one } },
    async (request) => ({ ok: true, item: await svc.store.run(completeProject(svc, request.actor, request.params.projectId)) }),
  );

  app.post(
    '/projects/:projectId/restore',
    { schema: { tags, summary: 'Restore a completed project', params: projectParams, response: one } },
    async (request) => ({ ok: true, item: await svc.store.run(restoreProject(svc, request.actor, request.params.projectId)) }),
  );

  app.get(
    '/projects/:projectId/members',
    {
      schema: {
        tags,
        summary: 'People with access to a project',
        params: projectParams,
        querystring: membersQuery,
        response: membersResponses,
      },
    },
    async (request) => ({
      ok: true,
      items: await svc.store.run(listProjectMembers(svc, request.actor, request.params.projectId, request.query)),
    }),
  );

  app.get(
    '/me/projects',
    {
      schema: {
        tags,
        summary: "The caller's projects across their workspaces (templates excluded); `search` filters by name",
        description:
          '`sort`: `viewed-desc` (default) lists the projects the caller opened most recently (`GET /projects/{id}`) first, ' +
          'then those never opened, newest first; `viewed-asc` is the exact reverse.',
        querystring: myProjectsQuery,
        response: many,
      },
    },
    async (request) => {
      const { search, sort, ...page } = request.query;
      return { ok: true, items: await svc.store.run(listMyProjects(svc, request.actor, page, search, sort)) };
    },
  );

  app.get(
    '/folders/:folderId/projects',
    {
      schema: {
        tags,
        summary: "A folder's projects (templates excluded); all of them unless limit is given; `search` filters by name",
        params: folderParams,
        querystring: folderProjectsQuery,
        response: many,
      },
    },
    async (request) => {
      const { limit, page, search } = request.query;
      const paging = limit === undefined ? undefined : { limit, page };
      return { ok: true, items: await svc.store.run(listFolderProjects(svc, request.actor, request.params.folderId, paging, search)) };
    },
  );

  app.get(
    '/folders/:folderId/project-templates',
    {
      schema: {
        tags,
        summary: "A folder's project templates",
        params: folderParams,
        querystring: templatesQuery,
        response: many,
      },
    },
    async (request) => ({
      ok: true,
      items: await svc.store.run(listFolderTemplates(svc, request.actor, request.params.folderId, request.query)),
    }),
  );
};
