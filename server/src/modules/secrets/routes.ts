import type { FastifyPluginAsync } from 'fastify';
import { isoTime } from '../../platform/clock';
import { itemEnvelope, itemsEnvelope, okOnly, params, responses } from '../../http/schemas';
import { SECRET_MAX_LENGTH, SECRET_NAME_PATTERN, deleteSecret, listSecrets, setSecret, type SecretInfo } from './service';

/** Secrets are managed with first-party credentials only (auth/hook.ts `FirstPartyPolicy`). */
const FIRST_PARTY = { firstParty: true } as const;

const secretSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    updatedBy: { type: 'string', nullable: true },
    usedBy: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, enabled: { type: 'boolean' } } },
    },
    created: { type: 'boolean' },
  },
} as const;

const secretParams = {
  type: 'object',
  required: ['workspaceId', 'name'],
  properties: { workspaceId: { type: 'string', minLength: 1 }, name: { type: 'string', pattern: SECRET_NAME_PATTERN } },
} as const;

function present(secret: SecretInfo) {
  return { ...secret, createdAt: isoTime(secret.createdAt), updatedAt: isoTime(secret.updatedAt) };
}

/**
 * Workspace secrets over the API (docs/automations.md "Secrets"), Owners only: list names (never
 * values), set or rotate a value (`PUT`, write-only), delete one no enabled automation reads.
 * First-party only: OAuth access tokens get 403 (docs/oauth.md "Threat model").
 */
export const secretRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { workspaceId: string } }>(
    '/workspaces/:workspaceId/secrets',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['secrets'],
        summary: "Owners: the workspace's secrets by name, with the automations that read each (never a value)",
        params: params('workspaceId'),
        response: responses(itemsEnvelope(secretSchema)),
      },
    },
    async (request) => ({
      ok: true,
      items: (await app.services.store.run(listSecrets(app.services, request.actor, request.params.workspaceId))).map(present),
    }),
  );

  app.put<{ Params: { workspaceId: string; name: string }; Body: { value: string } }>(
    '/workspaces/:workspaceId/secrets/:name',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['secrets'],
        summary: 'Owners: set or rotate a secret; the value is never shown again',
        params: secretParams,
        body: {
          type: 'object',
          required: ['value'],
          additionalProperties: false,
          properties: { value: { type: 'string', maxLength: SECRET_MAX_LENGTH } },
        },
        response: responses(itemEnvelope(secretSchema)),
      },
    },
    async (request) => {
      const { secret, created } = await app.services.store.run(
        setSecret(app.services, request.actor, request.params.workspaceId, request.params.name, request.body.value),
      );
      return { ok: true, item: { ...present(secret), created } };
    },
  );

  app.delete<{ Params: { workspaceId: string; name: string } }>(
    '/workspaces/:workspaceId/secrets/:name',
    {
      config: FIRST_PARTY,
      schema: {
        tags: ['secrets'],
        summary: 'Owners: delete a secret no enabled automation reads (409 with their list otherwise)',
        params: secretParams,
        response: responses(okOnly),
      },
    },
    async (request) => {
      await app.services.store.run(deleteSecret(app.services, request.actor, request.params.workspaceId, request.params.name));
      return { ok: true };
    },
  );
};
