import type { FastifyPluginAsync } from 'fastify';
import { ROLES } from '../auth/roles';
import { isoTime } from '../platform/clock';
import {
  acceptInvitation,
  changeMemberRole,
  createInvitation,
  listInvitations,
  listMembers,
  removeMember,
  revokeInvitation,
  type Invitation,
} from './invitations';
import { itemEnvelope, itemsEnvelope, okOnly, params, responses } from '../http/schemas';

/** Membership is managed with first-party credentials only (auth/hook.ts `FirstPartyPolicy`). */
const FIRST_PARTY = { firstParty: true } as const;

const member = {
  type: 'object',
  properties: { userId: { type: 'string' }, handle: { type: 'string' }, displayName: { type: 'string' }, role: { type: 'string' } },
} as const;
const invitation = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    workspaceId: { type: 'string' },
    role: { type: 'string' },
    email: { type: 'string', nullable: true },
    handle: { type: 'string', nullable: true },
    createdAt: { type: 'string', format: 'date-time' },
    expiresAt: { type: 'string', format: 'date-time' },
    token: { type: 'string' },
    url: { type: 'string' },
  },
} as const;

function present(i: Invitation) {
  return { ...i, createdAt: isoTime(i.createdAt), expiresAt: isoTime(i.expiresAt) };
}

/**
 * Workspace members and invitations (docs "Invitations and members"): Owners invite by email or
 * handle, list and withdraw invitations, change roles and remove members; any signed-in account
 * accepts an invitation with its token. Every route but the member list is first-party only
 * (a session or a personal access token; docs/oauth.md "Threat model").
 */
export const membersRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;
  const { links, store } = svc;

  app.get<{ Params: { workspaceId: string } }>(
    '/workspaces/:workspaceId/members',
    {
      schema: {
        tags: ['members'],
        summary: "A workspace's members and roles",
        params: params('workspaceId'),
        response: responses(itemsEnvelope(member)),
      },
    },
    async (request) => {
      return { ok: true, items: await store.run(listMembers(svc, request.actor, request.params.workspaceId)) };
    },
  );

  app.patch<{ Params: { workspaceId: string; handle: string }; Body: { role: string } }>(
    '/workspaces/:workspaceId/members/:handle',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['members'],
        summary: "Owners: change a member's role",
        params: params('workspaceId', 'handle'),
        body: {
          type: 'object',
          required: ['role'],
          additionalProperties: false,
          properties: { role: { type: 'string', enum: [...ROLES] } },
        },
        response: responses(okOnly, { 409: { $ref: 'ErrorEnvelope#' } }),
      },
    },
    async (request) => {
      const { workspaceId, handle } = request.params;
      await store.run(changeMemberRole(svc, request.actor, workspaceId, handle, request.body.role));
      return { ok: true };
    },
  );

  app.delete<{ Params: { workspaceId: string; handle: string } }>(
    '/workspaces/:workspaceId/members/:handle',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['members'],
        summary: 'Owners: remove a member (their access ends at once)',
        params: params('workspaceId', 'handle'),
        response: responses(okOnly, { 409: { $ref: 'ErrorEnvelope#' } }),
      },
    },
    async (request) => {
      const { workspaceId, handle } = request.params;
      await store.run(removeMember(svc, request.actor, workspaceId, handle));
      return { ok: true };
    },
  );

  app.post<{ Params: { workspaceId: string }; Body: { role: string; email?: string; handle?: string } }>(
    '/workspaces/:workspaceId/invitations',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['members'],
        summary: 'Owners: invite by email or handle; the token and link are in this reply only',
        params: params('workspaceId'),
        body: {
          type: 'object',
          required: ['role'],
          additionalProperties: false,
          properties: {
            role: { type: 'string', enum: [...ROLES] },
            email: { type: 'string', maxLength: 254 },
            handle: { type: 'string', maxLength: 39 },
          },
        },
        response: responses(itemEnvelope(invitation)),
      },
    },
    async (request) => {
      const { invitation: created, token } = await store.run(
        createInvitation(svc, request.actor, { ...request.body, workspaceId: request.params.workspaceId }),
      );
      return { ok: true, item: { ...present(created), token, url: links.url(`/invite?token=${token}`) } };
    },
  );

  app.get<{ Params: { workspaceId: string } }>(
    '/workspaces/:workspaceId/invitations',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['members'],
        summary: 'Owners: pending invitations',
        params: params('workspaceId'),
        response: responses(itemsEnvelope(invitation)),
      },
    },
    async (request) => {
      return { ok: true, items: (await store.run(listInvitations(svc, request.actor, request.params.workspaceId))).map(present) };
    },
  );

  app.delete<{ Params: { workspaceId: string; invitationId: string } }>(
    '/workspaces/:workspaceId/invitations/:invitationId',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['members'],
        summary: 'Owners: withdraw an invitation',
        params: params('workspaceId', 'invitationId'),
        response: responses(okOnly),
      },
    },
    async (request) => {
      await store.run(revokeInvitation(svc, request.actor, request.params.workspaceId, request.params.invitationId));
      return { ok: true };
    },
  );

  app.post<{ Body: { token: string } }>(
    '/invitations/accept',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['members'],
        summary: 'Join a workspace with an invitation token, as the signed-in account',
        body: {
          type: 'object',
          required: ['token'],
          additionalProperties: false,
          properties: { token: { type: 'string', maxLength: 200 } },
        },
        response: responses(itemEnvelope({ type: 'object', properties: { workspaceId: { type: 'string' }, role: { type: 'string' } } })),
      },
    },
    async (request) => {
      const accepted = await store.run(acceptInvitation(svc, request.actor, request.body.token));
      return { ok: true, item: { workspaceId: accepted.workspaceId, role: accepted.role } };
    },
  );
};
