import type { FastifyPluginAsync } from 'fastify';
import { addProjectMembers, MAX_MEMBER_HANDLES, removeProjectMember } from './members';
import { itemsEnvelope, okOnly, params, responses, singleLine } from '../../http/schemas';

const member = { type: 'object', properties: { handle: { type: 'string' }, displayName: { type: 'string' } } } as const;

/**
 * Explicit project membership (README "Events and webhooks", "Project members"): add members
 * (raising `project.assigned` / `project.joined`) and remove one. Listing stays
 * `GET /api/v1/projects/{projectId}/members` (projects routes).
 */
export const projectMemberRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;
  const tags = ['projects'];

  app.put<{ Params: { projectId: string }; Body: { handles: string[] } }>(
    '/projects/:projectId/members',
    {
      schema: {
        tags,
        summary: 'Add workspace members to a project',
        description:
          'Adding only yourself needs Participant and raises project.joined; adding others needs Collaborator and raises ' +
          'project.assigned per newly added handle. Returns the explicit members after the change.',
        params: params('projectId'),
        body: {
          type: 'object',
          required: ['handles'],
          additionalProperties: false,
          properties: { handles: { type: 'array', minItems: 1, maxItems: MAX_MEMBER_HANDLES, items: singleLine(39) } },
        },
        response: responses(itemsEnvelope(member), { 409: { $ref: 'ErrorEnvelope#' } }),
      },
    },
    async (request) => ({
      ok: true,
      items: await svc.store.run(addProjectMembers(svc, request.actor, request.params.projectId, request.body.handles)),
    }),
  );

  app.delete<{ Params: { projectId: string; handle: string } }>(
    '/projects/:projectId/members/:handle',
    {
      schema: {
        tags,
        summary: 'Remove an explicit project member (yourself: Participant; others: Collaborator)',
        params: params('projectId', 'handle'),
        response: responses(okOnly, { 409: { $ref: 'ErrorEnvelope#' } }),
      },
    },
    async (request) => {
      await svc.store.run(removeProjectMember(svc, request.actor, request.params.projectId, request.params.handle));
      return { ok: true };
    },
  );
};
