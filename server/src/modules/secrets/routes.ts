import type { FastifyPluginAsync } from 'fastify';
import { isoTime } from '../../platform/clock';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { deleteSecret, listSecrets, setSecret, type SecretInfo } from './service';
import { SecretParams, SetSecretBody, deleteSecretResponses, secretResponses, secretsResponses, workspaceParams } from './schemas';

/** Secrets are managed with first-party credentials only (auth/hook.ts `FirstPartyPolicy`). */
const FIRST_PARTY = { firstParty: true } as const;

function present(secret: SecretInfo) {
  return { ...secret, createdAt: isoTime(secret.createdAt), updatedAt: isoTime(secret.updatedAt) };
}

/**
 * Workspace secrets over the API (docs/automations.md "Secrets"), Owners only: list names (never
 * values), set or rotate a value (`PUT`, write-only), delete one no enabled automation reads.
 * First-party only: OAuth access tokens get 403 (docs/oauth.md "Threat model").
 */
export const secretRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/workspaces/:workspaceId/secrets',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['secrets'],
        summary: "Owners: the workspace's secrets by name, with the automations that read each (never a value)",
        params: workspaceParams,
        response: secretsResponses,
      },
    },
    async (request) => ({
      ok: true,
      items: (await app.services.store.run(listSecrets(app.services, request.actor, request.params.workspaceId))).map(present),
    }),
  );

  app.put(
    '/workspaces/:workspaceId/secrets/:name',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['secrets'],
        summary: 'Owners: set or rotate a secret; the value is never shown again',
        params: SecretParams,
        body: SetSecretBody,
        response: secretResponses,
      },
    },
    async (request) => {
      const { secret, created } = await app.services.store.run(
        setSecret(app.services, request.actor, request.params.workspaceId, request.params.name, request.body.value),
      );
      return { ok: true, item: { ...present(secret), created } };
    },
  );

  app.delete(
    '/workspaces/:workspaceId/secrets/:name',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['secrets'],
        summary: 'Owners: delete a secret no enabled automation reads (409 with their list otherwise)',
        params: SecretParams,
        response: deleteSecretResponses,
      },
    },
    async (request) => {
      await app.services.store.run(deleteSecret(app.services, request.actor, request.params.workspaceId, request.params.name));
      return { ok: true };
    },
  );
};
