import type { FastifyPluginAsync } from 'fastify';
import { listAccessTokens, type AccessTokenInfo } from '../auth/tokens';
import { createTokenAs, listWorkspaceTokens, revokeTokenAs } from './personal-tokens';
import { isoTime } from '../platform/clock';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  CreateTokenBody,
  TokenParams,
  WorkspaceParams,
  createdTokenResponses,
  memberTokensResponses,
  okResponses,
  tokensResponses,
} from './schemas';

/** Personal access tokens are managed with first-party credentials only (auth/hook.ts `FirstPartyPolicy`). */
const FIRST_PARTY = { firstParty: true } as const;

/** A token's metadata as answered; `expired` as of `now` (ms). */
function present(t: AccessTokenInfo, now: number) {
  return {
    id: t.id,
    name: t.name,
    scope: t.scope,
    createdAt: isoTime(t.createdAt),
    lastUsedAt: t.lastUsedAt === null ? null : isoTime(t.lastUsedAt),
    expiresAt: t.expiresAt === null ? null : isoTime(t.expiresAt),
    expired: t.expiresAt !== null && t.expiresAt <= now,
  };
}

/**
 * Personal access tokens over the API (docs "Personal access tokens"): create (shown once),
 * list and revoke my tokens; Owners list and revoke the tokens of their workspace's members.
 * First-party only: OAuth access tokens get 403 (docs/oauth.md "Threat model").
 */
export const accessTokenRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const { store, clock } = svc;

  app.post(
    '/tokens',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['tokens'],
        summary: 'Create a personal access token for me; the token is in this reply only',
        body: CreateTokenBody,
        response: createdTokenResponses,
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
      schema: { tags: ['tokens'], summary: 'My live personal access tokens (never the token itself)', response: tokensResponses },
    },
    async (request) => {
      const now = clock.now();
      const items = (await store.run(listAccessTokens(store.sql, request.actor.userId)))
        .filter((t) => t.revokedAt === null)
        .map((t) => present(t, now));
      return { ok: true, items };
    },
  );

  app.get(
    '/workspaces/:workspaceId/tokens',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['tokens'],
        summary: 'Owners: the live personal access tokens of every member of the workspace',
        params: WorkspaceParams,
        response: memberTokensResponses,
      },
    },
    async (request) => {
      const items = await store.run(listWorkspaceTokens(svc, request.actor, request.params.workspaceId));
      const now = clock.now();
      return { ok: true, items: items.map((t) => ({ ...present(t, now), user: { id: t.userId, handle: t.handle } })) };
    },
  );

  app.delete(
    '/tokens/:tokenId',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['tokens'],
        summary: "Revoke one of my tokens, or (Owners) a member's token",
        params: TokenParams,
        response: okResponses,
      },
    },
    async (request) => {
      await store.run(revokeTokenAs(svc, request.actor, request.params.tokenId));
      app.meter.forgetCachedTokens();
      return { ok: true };
    },
  );
};
