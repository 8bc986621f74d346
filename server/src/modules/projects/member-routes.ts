import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { addProjectMembers, removeProjectMember } from './members';
import { AddMembersBody, addMembersResponses, memberParams, projectParams, removeMemberResponses } from './schemas';

/**
 * Explicit project membership (README "Events and webhooks", "Project members"): add members
 * (raising `project.assigned` / `project.joined`) and remove one. Listing stays
 * `GET /api/v1/projects/{projectId}/members` (projects routes).
 */
export const projectMemberRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const tags = ['projects'];

  app.put(
    '/projects/:projectId/members',
    {
      schema: {
        tags,
        summary: 'Add workspace members to a project',
        description:
          'Adding only yourself needs Participant and raises project.joined; adding others needs Collaborator and raises ' +
          'project.assigned per newly added handle. Returns the explicit members after the change.',
        params: projectParams,
        body: AddMembersBody,
        response: addMembersResponses,
      },
    },
    async (request) => ({
      ok: true,
      items: await svc.store.run(addProjectMembers(svc, request.actor, request.params.projectId, request.body.handles)),
    }),
  );

  app.delete(
    '/projects/:projectId/members/:handle',
    {
      schema: {
        tags,
        summary: 'Remove an explicit project member (yourself: Participant; others: Collaborator)',
        params: memberParams,
        response: removeMemberResponses,
      },
    },
    async (request) => {
      await svc.store.run(removeProjectMember(svc, request.actor, request.params.projectId, request.params.handle));
      return { ok: true };
    },
  );
};
