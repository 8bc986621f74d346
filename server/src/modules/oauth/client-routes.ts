import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { isoTime } from '../../platform/clock';
import { deleteClient, listClients, registerClient, type OAuthClient } from './clients';
import {
  ClientParams,
  GrantParams,
  RegisterClientBody,
  WorkspaceParams,
  clientsResponses,
  grantsResponses,
  okResponses,
  registeredResponses,
} from './schemas';
import { listMyGrants, revokeMyGrant, type GrantInfo } from './grants';
import { disableAutomationsOfOAuth } from '../automations/oauth-disable';

/** OAuth clients and grants are managed with first-party credentials only (auth/hook.ts `FirstPartyPolicy`). */
const FIRST_PARTY = { firstParty: true } as const;

/** A workspace's client as the API shows it (these routes only ever see clients an Owner registered in a workspace). */
function presentClient(client: OAuthClient) {
  const { registration: _registration, ...rest } = client;
  return { ...rest, workspaceId: client.workspaceId ?? '', createdAt: isoTime(client.createdAt) };
}

function presentGrant(grant: GrantInfo) {
  return {
    ...grant,
    createdAt: isoTime(grant.createdAt),
    updatedAt: isoTime(grant.updatedAt),
    lastUsedAt: grant.lastUsedAt === null ? null : isoTime(grant.lastUsedAt),
  };
}

/**
 * OAuth clients and grants over the API (docs/oauth.md): Owners register, list and delete a
 * workspace's clients (the secret is in the registration reply only); everyone lists and revokes
 * the apps they authorized. OAuth access tokens may not use these routes. Revoking a grant or
 * deleting a client also disables the automations made through it (automations/oauth-disable.ts).
 */
export const oauthClientRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/workspaces/:workspaceId/oauth-clients',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['oauth'],
        summary: "Owners: register an OAuth client; a confidential client's secret is in this reply only",
        params: WorkspaceParams,
        body: RegisterClientBody,
        response: registeredResponses,
      },
    },
    async (request) => {
      const svc = app.services;
      const { client, clientSecret } = await svc.store.run(registerClient(svc, request.actor, request.params.workspaceId, request.body));
      return { ok: true, item: { ...presentClient(client), ...(clientSecret ? { clientSecret } : {}) } };
    },
  );

  app.get(
    '/workspaces/:workspaceId/oauth-clients',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['oauth'],
        summary: "Owners: the workspace's OAuth clients (never a secret)",
        params: WorkspaceParams,
        response: clientsResponses,
      },
    },
    async (request) => ({
      ok: true,
      items: (await app.services.store.run(listClients(app.services, request.actor, request.params.workspaceId))).map(presentClient),
    }),
  );

  app.delete(
    '/oauth-clients/:clientId',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['oauth'],
        summary: 'Owners: delete an OAuth client; every token it holds stops working',
        params: ClientParams,
        response: okResponses,
      },
    },
    async (request) => {
      await app.services.store.run(deleteClient(app.services, request.actor, request.params.clientId));
      app.meter.forgetCachedTokens();
      await disableAutomationsOfOAuth(app.services, app.automations, { clientId: request.params.clientId });
      return { ok: true };
    },
  );

  app.get(
    '/me/oauth-grants',
    { config: FIRST_PARTY, schema: { tags: ['oauth'], summary: 'The apps I authorized, with their scopes', response: grantsResponses } },
    async (request) => ({ ok: true, items: (await app.services.store.run(listMyGrants(app.services, request.actor))).map(presentGrant) }),
  );

  app.delete(
    '/me/oauth-grants/:grantId',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['oauth'],
        summary: 'Revoke an app I authorized: its tokens stop working at once',
        params: GrantParams,
        response: okResponses,
      },
    },
    async (request) => {
      await app.services.store.run(revokeMyGrant(app.services, request.actor, request.params.grantId));
      app.meter.forgetCachedTokens();
      await disableAutomationsOfOAuth(app.services, app.automations, { grantId: request.params.grantId });
      return { ok: true };
    },
  );
};
