import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  createAutomation,
  deleteAutomation,
  getAutomation,
  listAutomations,
  setAutomationEnabled,
  testRun,
  updateAutomation,
} from './service';
import { getAutomationVersion, listAutomationVersions, restoreAutomationVersion } from './versions';
import { etagOf } from '../engine-host/version-save';
import { metricsRoute } from '../runs/metrics';
import { kindsRoutes } from './kinds-routes';
import { checkRoutes } from './check-routes';
import { stepTestRoutes } from './step-test-routes';
import { transferRoutes } from './transfer-routes';
import { triggerStatusRoute } from './trigger-status';
import { emptyBodyAsObject } from '../runs/run-schemas';
import {
  CreateBody,
  ListQuery,
  RestoreBody,
  TestRunBody,
  UpdateBody,
  automationParams,
  automationResponses,
  automationsResponses,
  createResponses,
  deleteResponses,
  testRunResponses,
  updateResponses,
  versionParams,
  versionResponses,
  versionsResponses,
} from './schemas';

/**
 * `/api/v1/automations` (README "Automations", "API"): management (Owner), test runs, versions,
 * metrics and the published definition schema. Runs and approvals are `run-routes.ts`. The
 * schemas are `schemas.ts`.
 */
export const automationsRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const rt = app.automations;
  const tags = ['automations'];

  kindsRoutes(plugin, tags);
  checkRoutes(plugin, tags);
  stepTestRoutes(plugin, tags);
  transferRoutes(plugin, tags);
  triggerStatusRoute(plugin, svc, rt, tags);

  app.get(
    '/automations',
    { schema: { tags, summary: "A workspace's automations (any member)", querystring: ListQuery, response: automationsResponses } },
    async (request) => ({ ok: true, items: await listAutomations(svc, rt, request.actor, request.query.workspaceId) }),
  );

  app.post(
    '/automations',
    {
      schema: {
        tags,
        summary: 'Create an automation (Owner)',
        description:
          'Body: `workspaceId`, optional `enabled` (default true), and the definition (`name`, `description`, `trigger`, `actions`; see GET /automations/schema).',
        body: CreateBody,
        response: createResponses,
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

  app.get(
    '/automations/:automationId',
    {
      schema: {
        tags,
        summary: 'One automation (any member); its ETag is its version',
        params: automationParams,
        response: automationResponses,
      },
    },
    async (request, reply) => {
      const item = await getAutomation(svc, rt, request.actor, request.params.automationId);
      void reply.header('etag', etagOf(item.version));
      return { ok: true, item };
    },
  );

  app.put(
    '/automations/:automationId',
    {
      schema: {
        tags,
        summary: 'Replace the definition: a new version (Owner)',
        description:
          'Optional `message` (stored with the version). With `If-Match: "<version>"` (the ETag of GET), a save over a newer version is 412.',
        params: automationParams,
        body: UpdateBody,
        response: updateResponses,
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

  app.delete(
    '/automations/:automationId',
    { schema: { tags, summary: 'Delete an automation with its runs (Owner)', params: automationParams, response: deleteResponses } },
    async (request) => {
      await deleteAutomation(svc, rt, request.actor, request.params.automationId);
      return { ok: true };
    },
  );

  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    app.post(
      `/automations/:automationId/${verb}`,
      {
        schema: {
          tags,
          summary: enabled ? 'Enable an automation (Owner)' : 'Disable an automation; cancels its waiting runs (Owner)',
          params: automationParams,
          response: automationResponses,
        },
      },
      async (request) => ({ ok: true, item: await setAutomationEnabled(svc, rt, request.actor, request.params.automationId, enabled) }),
    );
  }

  app.post(
    '/automations/:automationId/test',
    {
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: 'Run with a sample trigger payload (Owner); actions run for real',
        description: 'Waits up to 10 s for the run to finish or wait, then returns it with its steps.',
        params: automationParams,
        body: TestRunBody,
        response: testRunResponses,
      },
    },
    async (request) => ({ ok: true, item: await testRun(svc, rt, request.actor, request.params.automationId, request.body.payload ?? {}) }),
  );

  app.get(
    '/automations/:automationId/versions',
    {
      schema: {
        tags,
        summary: "An automation's kept versions, newest first (any member); each run names the version it executed",
        params: automationParams,
        response: versionsResponses,
      },
    },
    async (request) => ({ ok: true, items: await listAutomationVersions(svc, rt, request.actor, request.params.automationId) }),
  );

  app.get(
    '/automations/:automationId/versions/:version',
    {
      schema: {
        tags,
        summary: "One version's definition (any member; credentials redacted for non-Owners)",
        params: versionParams,
        response: versionResponses,
      },
    },
    async (request) => ({
      ok: true,
      item: await getAutomationVersion(svc, rt, request.actor, request.params.automationId, request.params.version),
    }),
  );

  app.post(
    '/automations/:automationId/versions/:version/restore',
    {
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: 'Roll back: the version\'s definition becomes a new version (Owner); optional `message` (default "Restored version <n>")',
        params: versionParams,
        body: RestoreBody,
        response: automationResponses,
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
        request.body.message,
      ),
    }),
  );

  metricsRoute(plugin, svc, rt);
};
