import type { FastifyPluginAsync } from 'fastify';
import { TOKEN_SCOPES, listAccessTokens, type AccessTokenInfo, type TokenScope } from '../auth/tokens';
import { createTokenAs, listWorkspaceTokens, revokeTokenAs } from './personal-tokens';
import { isoTime } from '../platform/clock';
import { itemEnvelope, itemsEnvelope, okOnly, params, responses, singleLine } from '../http/schemas';

/** Personal access tokens are managed with first-party credentials only (auth/hook.ts `FirstPartyPolicy`). */
const FIRST_PARTY = { firstParty: true } as const;

const tokenInfo = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    scope: { type: 'string', enum: [...TOKEN_SCOPES] },
    createdAt: { type: 'string', format: 'date-time' },
    lastUsedAt: { type: 'string', format: 'date-time', nullable: true },
    expiresAt: { type: 'string', format: 'date-time', nullable: true },
    expired: { type: 'boolean' },
    user: { type: 'object', properties: { id: { type: 'string' }, handle: { type: 'string' } } },
  },
} as const;

const createdToken = {
  type: 'object',
  properties: { ...tokenInfo.properties, token: { type: 'string' } },
} as const;

function present(t: AccessTokenInfo, now: number, handle?: string) {
  return {
    id: t.id,
    name: t.name,
    scope: t.scope,
    createdAt: isoTime(t.createdAt),
    lastUsedAt: t.lastUsedAt === null ? null : isoTime(t.lastUsedAt),
    expiresAt: t.expiresAt === null ? null : isoTime(t.expiresAt),
    expired: t.expiresAt !== null && t.expiresAt <= now,
    ...(handle ? { user: { id: t.userId, handle } } : {}),
  };
}

/**
 * Personal access tokens over the API (docs "Personal access tokens"): create (shown once),
 * list and revoke my tokens; Owners list and revoke the tokens of their workspace's members.
 * First-party only: OAuth access tokens get 403 (docs/oauth.md "Threat model").
 */
export const accessTokenRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;
  const { store, clock } = svc;

  app.post<{ Body: { name: string; scope?: TokenScope; expiresAt?: string } }>(
    '/tokens',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['tokens'],
        summary: 'Create a personal access token for me; the token is in this reply only',
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: {
            name: { ...singleLine(100), minLength: 1 },
            scope: { type: 'string', enum: [...TOKEN_SCOPES] },
            expiresAt: { type: 'string', format: 'date-time' },
          },
        },
        response: responses(itemEnvelope(createdToken)),
      },
    },
    async (request) => {
      const { name, scope, expiresAt } = request.body;
      const { info, token } = await store.run(
        createTokenAs(svc, request.actor, { name, scope, expiresAt: expiresAt === undefined ? null : Date.parse(expiresAt) }),
      );
      return { ok: true, item: { ...present(info, clock.now()), token } };
    },
  );

  app.get(
    '/tokens',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['tokens'],
        summary: 'My live personal access tokens (never the token itself)',
        response: responses(itemsEnvelope(tokenInfo)),
      },
    },
    async (request) => {
      const now = clock.now();
      const items = (await store.run(listAccessTokens(store.sql, request.actor.userId)))
        .filter((t) => t.revokedAt === null)
        .map((t) => present(t, now));
      return { ok: true, items };
    },
  );

  app.get<{ Params: { workspaceId: string } }>(
    '/workspaces/:workspaceId/tokens',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['tokens'],
        summary: 'Owners: the live personal access tokens of every member of the workspace',
        params: params('workspaceId'),
        response: responses(itemsEnvelope(tokenInfo)),
      },
    },
    async (request) => {
      const items = await store.run(listWorkspaceTokens(svc, request.actor, request.params.workspaceId));
      const now = clock.now();
      return { ok: true, items: items.map((t) => present(t, now, t.handle)) };
    },
  );

  app.delete<{ Params: { tokenId: string } }>(
    '/tokens/:tokenId',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['tokens'],
        summary: "Revoke one of my tokens, or (Owners) a member's token",
        params: params('tokenId'),
        response: responses(okOnly),
      },
    },
    async (request) => {
      await store.run(revokeTokenAs(svc, request.actor, request.params.tokenId));
      app.meter.forgetCachedTokens();
      return { ok: true };
    },
  );
};
