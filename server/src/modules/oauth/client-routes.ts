import type { FastifyPluginAsync } from 'fastify';
import { isoTime } from '../../platform/clock';
import { itemEnvelope, itemsEnvelope, okOnly, params, responses, singleLine } from '../../http/schemas';
import { CLIENT_TYPES, MAX_REDIRECT_URIS, deleteClient, listClients, registerClient, type ClientInput, type OAuthClient } from './clients';
import { listMyGrants, revokeMyGrant, type GrantInfo } from './grants';
import { disableAutomationsOfOAuth } from '../automations/oauth-origin';

/** OAuth clients and grants are managed with first-party credentials only (auth/hook.ts `FirstPartyPolicy`). */
const FIRST_PARTY = { firstParty: true } as const;

const clientSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    workspaceId: { type: 'string' },
    name: { type: 'string' },
    redirectUris: { type: 'array', items: { type: 'string' } },
    type: { type: 'string', enum: [...CLIENT_TYPES] },
    createdAt: { type: 'string', format: 'date-time' },
    createdBy: { type: 'string', nullable: true },
  },
} as const;

const registeredClient = {
  type: 'object',
  properties: { ...clientSchema.properties, clientSecret: { type: 'string' } },
} as const;

const grantSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    client: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, workspaceId: { type: 'string' } } },
    scopes: { type: 'array', items: { type: 'string' } },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    lastUsedAt: { type: 'string', format: 'date-time', nullable: true },
  },
} as const;

function presentClient(client: OAuthClient) {
  return { ...client, createdAt: isoTime(client.createdAt) };
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
 * deleting a client also disables the automations made through it (automations/oauth-origin.ts).
 */
export const oauthClientRoutes: FastifyPluginAsync = async (app) => {
  app.post<{ Params: { workspaceId: string }; Body: ClientInput }>(
    '/workspaces/:workspaceId/oauth-clients',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['oauth'],
        summary: "Owners: register an OAuth client; a confidential client's secret is in this reply only",
        params: params('workspaceId'),
        body: {
          type: 'object',
          required: ['name', 'redirectUris', 'type'],
          additionalProperties: false,
          properties: {
            name: { ...singleLine(100), minLength: 1 },
            redirectUris: {
              type: 'array',
              minItems: 1,
              maxItems: MAX_REDIRECT_URIS,
              items: { type: 'string', minLength: 1, maxLength: 2000 },
            },
            type: { type: 'string', enum: [...CLIENT_TYPES] },
          },
        },
        response: responses(itemEnvelope(registeredClient)),
      },
    },
    async (request) => {
      const svc = app.services;
      const { client, clientSecret } = await svc.store.run(registerClient(svc, request.actor, request.params.workspaceId, request.body));
      return { ok: true, item: { ...presentClient(client), ...(clientSecret ? { clientSecret } : {}) } };
    },
  );

  app.get<{ Params: { workspaceId: string } }>(
    '/workspaces/:workspaceId/oauth-clients',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['oauth'],
        summary: "Owners: the workspace's OAuth clients (never a secret)",
        params: params('workspaceId'),
        response: responses(itemsEnvelope(clientSchema)),
      },
    },
    async (request) => ({
      ok: true,
      items: (await app.services.store.run(listClients(app.services, request.actor, request.params.workspaceId))).map(presentClient),
    }),
  );

  app.delete<{ Params: { clientId: string } }>(
    '/oauth-clients/:clientId',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['oauth'],
        summary: 'Owners: delete an OAuth client; every token it holds stops working',
        params: params('clientId'),
        response: responses(okOnly),
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
    {
      config: FIRST_PARTY,
      schema: { tags: ['oauth'], summary: 'The apps I authorized, with their scopes', response: responses(itemsEnvelope(grantSchema)) },
    },
    async (request) => ({ ok: true, items: (await app.services.store.run(listMyGrants(app.services, request.actor))).map(presentGrant) }),
  );

  app.delete<{ Params: { grantId: string } }>(
    '/me/oauth-grants/:grantId',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['oauth'],
        summary: 'Revoke an app I authorized: its tokens stop working at once',
        params: params('grantId'),
        response: responses(okOnly),
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
