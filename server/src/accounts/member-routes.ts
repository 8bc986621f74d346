import type { FastifyPluginAsync } from 'fastify';
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
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  InvitationBody,
  InvitationParams,
  InvitationTokenBody,
  MemberParams,
  MemberRoleBody,
  WorkspaceParams,
  acceptedResponses,
  createdInvitationResponses,
  invitationsResponses,
  membersResponses,
  okOrConflictResponses,
  okResponses,
} from './schemas';

/** Membership is managed with first-party credentials only (auth/hook.ts `FirstPartyPolicy`). */
const FIRST_PARTY = { firstParty: true } as const;

function present(i: Invitation) {
  return { ...i, createdAt: isoTime(i.createdAt), expiresAt: isoTime(i.expiresAt) };
}

/**
 * Workspace members and invitations (docs "Invitations and members"): Owners invite by email or
 * handle, list and withdraw invitations, change roles and remove members; any signed-in account
 * accepts an invitation with its token. Every route but the member list is first-party only
 * (a session or a personal access token; docs/oauth.md "Threat model").
 */
export const membersRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const { links, store } = svc;

  app.get(
    '/workspaces/:workspaceId/members',
    { schema: { tags: ['members'], summary: "A workspace's members and roles", params: WorkspaceParams, response: membersResponses } },
    async (request) => {
      return { ok: true, items: await store.run(listMembers(svc, request.actor, request.params.workspaceId)) };
    },
  );

  app.patch(
    '/workspaces/:workspaceId/members/:handle',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['members'],
        summary: "Owners: change a member's role",
        params: MemberParams,
        body: MemberRoleBody,
        response: okOrConflictResponses,
      },
    },
    async (request) => {
      const { workspaceId, handle } = request.params;
      await store.run(changeMemberRole(svc, request.actor, workspaceId, handle, request.body.role));
      return { ok: true };
    },
  );

  app.delete(
    '/workspaces/:workspaceId/members/:handle',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['members'],
        summary: 'Owners: remove a member (their access ends at once)',
        params: MemberParams,
        response: okOrConflictResponses,
      },
    },
    async (request) => {
      const { workspaceId, handle } = request.params;
      await store.run(removeMember(svc, request.actor, workspaceId, handle));
      return { ok: true };
    },
  );

  app.post(
    '/workspaces/:workspaceId/invitations',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['members'],
        summary: 'Owners: invite by email or handle; the token and link are in this reply only',
        params: WorkspaceParams,
        body: InvitationBody,
        response: createdInvitationResponses,
      },
    },
    async (request) => {
      const {
        invitation: created,
        token,
        mailed,
      } = await store.run(createInvitation(svc, request.actor, { ...request.body, workspaceId: request.params.workspaceId }));
      if (mailed) svc.signals?.notify('mail');
      return { ok: true, item: { ...present(created), token, url: links.url(`/invite?token=${token}`), mailed } };
    },
  );

  app.get(
    '/workspaces/:workspaceId/invitations',
    {
      config: FIRST_PARTY,
      schema: { tags: ['members'], summary: 'Owners: pending invitations', params: WorkspaceParams, response: invitationsResponses },
    },
    async (request) => {
      return { ok: true, items: (await store.run(listInvitations(svc, request.actor, request.params.workspaceId))).map(present) };
    },
  );

  app.delete(
    '/workspaces/:workspaceId/invitations/:invitationId',
    {
      config: FIRST_PARTY,
      schema: { tags: ['members'], summary: 'Owners: withdraw an invitation', params: InvitationParams, response: okResponses },
    },
    async (request) => {
      await store.run(revokeInvitation(svc, request.actor, request.params.workspaceId, request.params.invitationId));
      return { ok: true };
    },
  );

  app.post(
    '/invitations/accept',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['members'],
        summary: 'Join a workspace with an invitation token, as the signed-in account',
        body: InvitationTokenBody,
        response: acceptedResponses,
      },
    },
    async (request) => {
      const accepted = await store.run(acceptInvitation(svc, request.actor, request.body.token));
      return { ok: true, item: { workspaceId: accepted.workspaceId, role: accepted.role } };
    },
  );
};
