import { AUTOMATION_SCHEMA } from '@taskspace/engine';
import type { FastifyPluginAsync } from 'fastify';
import {
  createAutomation,
  deleteAutomation,
  getAutomation,
  listAutomations,
  setAutomationEnabled,
  testRun,
  updateAutomation,
} from './service';
import { itemEnvelope, itemsEnvelope, okOnly, params, responses } from '../../http/schemas';
import { getAutomationVersion, listAutomationVersions, restoreAutomationVersion } from './versions';
import { etagOf, MAX_VERSION_MESSAGE } from './version-save';
import { metricsRoute } from './metrics';
import { anyObject, emptyBodyAsObject, run } from './run-schemas';

const automation = {
  type: 'object',
  additionalProperties: true,
  properties: {
    id: { type: 'string' },
    workspaceId: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    enabled: { type: 'boolean' },
    version: { type: 'integer' },
    timeoutMs: { type: 'integer', description: "the run's time limit in ms, waits included" },
    concurrency: { type: 'integer', description: 'the most runs of this automation executing at once per process' },
    trigger: anyObject,
    actions: { type: 'array', items: anyObject },
    owner: { type: 'object', properties: { handle: { type: 'string' } } },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
    webhook: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        url: { type: 'string' },
        requiresToken: { type: 'boolean' },
        token: { type: 'string' },
        formUrl: { type: 'string', description: 'For a form trigger: the hosted form page' },
      },
    },
  },
} as const;

const versionSummary = {
  type: 'object',
  properties: {
    version: { type: 'integer' },
    createdAt: { type: 'string', format: 'date-time' },
    current: { type: 'boolean' },
    author: { type: 'object', properties: { handle: { type: 'string' } } },
    message: { type: 'string' },
  },
} as const;

/** The definition part of a create/update body (validated in full against the published schema). */
const definitionBody = {
  type: 'object',
  required: ['name', 'trigger', 'actions'],
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    description: { type: 'string' },
    trigger: anyObject,
    actions: { type: 'array', items: anyObject },
    retention: { type: 'object', additionalProperties: false, properties: { days: { type: 'integer' }, failedDays: { type: 'integer' } } },
    message: { type: 'string', maxLength: MAX_VERSION_MESSAGE, description: "the version's message (not part of the definition)" },
    timeoutMs: { type: 'integer' },
    concurrency: { type: 'integer' },
  },
} as const;

type Definition = {
  name: string;
  description?: string;
  trigger: object;
  actions: object[];
  timeoutMs?: number;
  concurrency?: number;
  retention?: { days?: number; failedDays?: number };
  message?: string;
};

/**
 * `/api/v1/automations` (README "Automations", "API"): management (Owner), test runs, versions,
 * metrics and the published definition schema. Runs and approvals are `run-routes.ts`.
 */
export const automationsRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;
  const rt = app.automations;
  const tags = ['automations'];

  app.get(
    '/automations/schema',
    { schema: { tags, summary: 'The JSON schema of an automation definition', response: { 200: anyObject } } },
    async () => AUTOMATION_SCHEMA,
  );

  app.get<{ Querystring: { workspaceId: string } }>(
    '/automations',
    {
      schema: {
        tags,
        summary: "A workspace's automations (any member)",
        querystring: { type: 'object', required: ['workspaceId'], properties: { workspaceId: { type: 'string', minLength: 1 } } },
        response: responses(itemsEnvelope(automation)),
      },
    },
    async (request) => ({ ok: true, items: await listAutomations(svc, rt, request.actor, request.query.workspaceId) }),
  );

  app.post<{ Body: Definition & { workspaceId: string; enabled?: boolean } }>(
    '/automations',
    {
      schema: {
        tags,
        summary: 'Create an automation (Owner)',
        description:
          'Body: `workspaceId`, optional `enabled` (default true), and the definition (`name`, `description`, `trigger`, `actions`; see GET /automations/schema).',
        body: {
          ...definitionBody,
          required: ['workspaceId', ...definitionBody.required],
          properties: { ...definitionBody.properties, workspaceId: { type: 'string', minLength: 1 }, enabled: { type: 'boolean' } },
        },
        response: responses(itemEnvelope(automation), { 402: { $ref: 'ErrorEnvelope#' } }),
      },
    },
    async (request) => {
      const { workspaceId, enabled, message, ...definition } = request.body;
      const input: Parameters<typeof createAutomation>[3] = { workspaceId, definition };
      if (enabled !== undefined) input.enabled = enabled;
      if (message !== undefined) input.message = message;
      return { ok: true, item: await createAutomation(svc, rt, request.actor, input) };
    },
  );

  app.get<{ Params: { automationId: string } }>(
    '/automations/:automationId',
    {
      schema: {
        tags,
        summary: 'One automation (any member); its ETag is its version',
        params: params('automationId'),
        response: responses(itemEnvelope(automation)),
      },
    },
    async (request, reply) => {
      const item = await getAutomation(svc, rt, request.actor, request.params.automationId);
      void reply.header('etag', etagOf(item.version));
      return { ok: true, item };
    },
  );

  app.put<{ Params: { automationId: string }; Body: Definition }>(
    '/automations/:automationId',
    {
      schema: {
        tags,
        summary: 'Replace the definition: a new version (Owner)',
        description:
          'Optional `message` (stored with the version). With `If-Match: "<version>"` (the ETag of GET), a save over a newer version is 412.',
        params: params('automationId'),
        body: definitionBody,
        response: responses(itemEnvelope(automation), { 402: { $ref: 'ErrorEnvelope#' }, 412: { $ref: 'ErrorEnvelope#' } }),
      },
    },
    async (request, reply) => {
      const { message, ...definition } = request.body;
      const opts: { message?: string; ifMatch?: string } = {};
      if (message !== undefined) opts.message = message;
      if (request.headers['if-match'] !== undefined) opts.ifMatch = request.headers['if-match'];
      const item = await updateAutomation(svc, rt, request.actor, request.params.automationId, definition, opts);
      void reply.header('etag', etagOf(item.version));
      return { ok: true, item };
    },
  );

  app.delete<{ Params: { automationId: string } }>(
    '/automations/:automationId',
    {
      schema: { tags, summary: 'Delete an automation with its runs (Owner)', params: params('automationId'), response: responses(okOnly) },
    },
    async (request) => {
      await deleteAutomation(svc, rt, request.actor, request.params.automationId);
      return { ok: true };
    },
  );

  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    app.post<{ Params: { automationId: string } }>(
      `/automations/:automationId/${verb}`,
      {
        schema: {
          tags,
          summary: enabled ? 'Enable an automation (Owner)' : 'Disable an automation; cancels its waiting runs (Owner)',
          params: params('automationId'),
          response: responses(itemEnvelope(automation)),
        },
      },
      async (request) => ({ ok: true, item: await setAutomationEnabled(svc, rt, request.actor, request.params.automationId, enabled) }),
    );
  }

  app.post<{ Params: { automationId: string }; Body: { payload?: Record<string, unknown> } | undefined }>(
    '/automations/:automationId/test',
    {
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: 'Run with a sample trigger payload (Owner); actions run for real',
        description: 'Waits up to 10 s for the run to finish or wait, then returns it with its steps.',
        params: params('automationId'),
        body: { type: 'object', additionalProperties: false, properties: { payload: anyObject } },
        response: responses(itemEnvelope(run)),
      },
    },
    async (request) => ({
      ok: true,
      item: await testRun(svc, rt, request.actor, request.params.automationId, request.body?.payload ?? {}),
    }),
  );

  const versionParams = {
    type: 'object',
    required: ['automationId', 'version'],
    properties: { automationId: { type: 'string', minLength: 1 }, version: { type: 'integer', minimum: 1 } },
  } as const;

  app.get<{ Params: { automationId: string } }>(
    '/automations/:automationId/versions',
    {
      schema: {
        tags,
        summary: "An automation's kept versions, newest first (any member); each run names the version it executed",
        params: params('automationId'),
        response: responses(itemsEnvelope(versionSummary)),
      },
    },
    async (request) => ({ ok: true, items: await listAutomationVersions(svc, rt, request.actor, request.params.automationId) }),
  );

  app.get<{ Params: { automationId: string; version: number } }>(
    '/automations/:automationId/versions/:version',
    {
      schema: {
        tags,
        summary: "One version's definition (any member; credentials redacted for non-Owners)",
        params: versionParams,
        response: responses(itemEnvelope(anyObject)),
      },
    },
    async (request) => ({
      ok: true,
      item: await getAutomationVersion(svc, rt, request.actor, request.params.automationId, request.params.version),
    }),
  );

  app.post<{ Params: { automationId: string; version: number }; Body: { message?: string } | undefined }>(
    '/automations/:automationId/versions/:version/restore',
    {
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: 'Roll back: the version\'s definition becomes a new version (Owner); optional `message` (default "Restored version <n>")',
        params: versionParams,
        body: { type: 'object', additionalProperties: false, properties: { message: { type: 'string', maxLength: MAX_VERSION_MESSAGE } } },
        response: responses(itemEnvelope(automation)),
      },
    },
    async (request) => ({
      ok: true,
      item: await restoreAutomationVersion(
        svc,
        rt,
        request.actor,
        request.params.automationId,
        request.params.version,
        request.body?.message,
      ),
    }),
  );

  metricsRoute(app, svc, rt);
};
