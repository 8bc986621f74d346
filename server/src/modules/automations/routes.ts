import { AUTOMATION_SCHEMA, type RunStatus } from '@taskspace/engine';
import type { FastifyPluginAsync } from 'fastify';
import {
  cancelRun,
  createAutomation,
  decideRun,
  deleteAutomation,
  getAutomation,
  getAutomationVersion,
  getRun,
  MAX_BULK_REPLAY,
  replayRun,
  replayRuns,
  type ReplayOptions,
  listAutomations,
  listAutomationVersions,
  listRuns,
  restoreAutomationVersion,
  setAutomationEnabled,
  testRun,
  updateAutomation,
} from './service';
import { itemEnvelope, itemsEnvelope, okOnly, params, responses } from '../../http/schemas';
import { decideWithLink, inspectDecisionLink } from './decision-links';
import { listPendingApprovals, listWorkspaceRuns, type ApprovalQuery, type WorkspaceRunQuery } from './workspace-runs';

const anyObject = { type: 'object', additionalProperties: true } as const;
const RUN_STATUSES = ['queued', 'running', 'waiting', 'completed', 'failed', 'rejected', 'cancelled', 'skipped'] as const;

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

const errorInfo = anyObject;
const step = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    type: { type: 'string' },
    status: { type: 'string' },
    input: {},
    output: {},
    error: errorInfo,
    attempts: { type: 'integer' },
    startedAt: { type: 'string' },
    finishedAt: { type: 'string' },
    durationMs: { type: 'integer' },
    nextAttemptAt: { type: 'string' },
  },
} as const;
const run = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    automationId: { type: 'string' },
    version: { type: 'integer' },
    status: { type: 'string', enum: RUN_STATUSES },
    test: { type: 'boolean' },
    depth: { type: 'integer' },
    trigger: anyObject,
    createdAt: { type: 'string' },
    startedAt: { type: 'string' },
    finishedAt: { type: 'string' },
    wakeAt: { type: 'string' },
    waitingFor: anyObject,
    error: errorInfo,
    replayOf: { type: 'string' },
    steps: { type: 'array', items: step },
  },
} as const;

const replayProperties = {
  from: { type: 'string', enum: ['start', 'failed-step'], default: 'start', description: 'failed-step keeps the steps that succeeded (not run again)' },
  version: { type: 'string', enum: ['original', 'current'], default: 'original', description: "the run's own automation version, or the current one" },
} as const;

const decisionRequest = {
  type: 'object',
  properties: {
    automationId: { type: 'string' },
    automationName: { type: 'string' },
    runId: { type: 'string' },
    stepId: { type: 'string' },
    message: { type: 'string' },
    approvers: { type: 'array', items: { type: 'string' } },
    expiresAt: { type: 'string', format: 'date-time' },
    pending: { type: 'boolean' },
  },
} as const;

const versionSummary = {
  type: 'object',
  properties: { version: { type: 'integer' }, createdAt: { type: 'string', format: 'date-time' }, current: { type: 'boolean' } },
} as const;

const pendingApproval = {
  type: 'object',
  properties: {
    runId: { type: 'string' },
    automationId: { type: 'string' },
    automationName: { type: 'string' },
    stepId: { type: 'string' },
    message: { type: 'string' },
    approvers: { type: 'array', items: { type: 'string' } },
    requestedAt: { type: 'string', format: 'date-time' },
    timeoutAt: { type: 'string', format: 'date-time' },
    youMayDecide: { type: 'boolean' },
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
  },
} as const;

const decisionBody = {
  type: 'object',
  additionalProperties: false,
  properties: { comment: { type: 'string', maxLength: 2000 } },
} as const;

type Definition = { name: string; description?: string; trigger: object; actions: object[] };

/** Lets a body-less POST through an optional-body schema: the body becomes `{}` before validation. */
async function emptyBodyAsObject(request: { body: unknown }): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}

/**
 * `/api/v1/automations` (README "Automations", "API"): management (Owner), runs (any member),
 * approvals, test runs, and the published definition schema; and a workspace's runs and pending
 * approvals across its automations (`/api/v1/workspaces/{id}/runs`, `…/approvals`).
 */
export const automationsRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;
  const rt = app.automations;
  const tags = ['automations'];

  app.get('/automations/schema', { schema: { tags, summary: 'The JSON schema of an automation definition', response: { 200: anyObject } } }, async () => AUTOMATION_SCHEMA);

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
        description: 'Body: `workspaceId`, optional `enabled` (default true), and the definition (`name`, `description`, `trigger`, `actions`; see GET /automations/schema).',
        body: {
          ...definitionBody,
          required: ['workspaceId', ...definitionBody.required],
          properties: { ...definitionBody.properties, workspaceId: { type: 'string', minLength: 1 }, enabled: { type: 'boolean' } },
        },
        response: responses(itemEnvelope(automation), { 402: { $ref: 'ErrorEnvelope#' } }),
      },
    },
    async (request) => {
      const { workspaceId, enabled, ...definition } = request.body;
      const input: Parameters<typeof createAutomation>[3] = { workspaceId, definition };
      if (enabled !== undefined) input.enabled = enabled;
      return { ok: true, item: await createAutomation(svc, rt, request.actor, input) };
    },
  );

  app.get<{ Params: { automationId: string } }>(
    '/automations/:automationId',
    { schema: { tags, summary: 'One automation (any member)', params: params('automationId'), response: responses(itemEnvelope(automation)) } },
    async (request) => ({ ok: true, item: await getAutomation(svc, rt, request.actor, request.params.automationId) }),
  );

  app.put<{ Params: { automationId: string }; Body: Definition }>(
    '/automations/:automationId',
    {
      schema: {
        tags,
        summary: 'Replace the definition: a new version (Owner)',
        params: params('automationId'),
        body: definitionBody,
        response: responses(itemEnvelope(automation), { 402: { $ref: 'ErrorEnvelope#' } }),
      },
    },
    async (request) => ({ ok: true, item: await updateAutomation(svc, rt, request.actor, request.params.automationId, request.body) }),
  );

  app.delete<{ Params: { automationId: string } }>(
    '/automations/:automationId',
    { schema: { tags, summary: 'Delete an automation with its runs (Owner)', params: params('automationId'), response: responses(okOnly) } },
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
    async (request) => ({ ok: true, item: await testRun(svc, rt, request.actor, request.params.automationId, request.body?.payload ?? {}) }),
  );

  app.get<{ Params: { automationId: string }; Querystring: { status?: RunStatus; limit: number; before?: string; requestId?: string } }>(
    '/automations/:automationId/runs',
    {
      schema: {
        tags,
        summary: "An automation's runs, newest first (any member)",
        params: params('automationId'),
        querystring: {
          type: 'object',
          properties: {
            status: { type: 'string', enum: RUN_STATUSES },
            limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
            before: { type: 'string', minLength: 1 },
            requestId: { type: 'string', minLength: 1, description: 'only the run started by this inbound request (the intake reply\'s requestId)' },
          },
        },
        response: responses(itemsEnvelope(run)),
      },
    },
    async (request) => ({ ok: true, items: await listRuns(svc, rt, request.actor, request.params.automationId, request.query) }),
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
    async (request) => ({ ok: true, item: await getAutomationVersion(svc, rt, request.actor, request.params.automationId, request.params.version) }),
  );

  app.post<{ Params: { automationId: string; version: number } }>(
    '/automations/:automationId/versions/:version/restore',
    {
      schema: {
        tags,
        summary: 'Roll back: the version\'s definition becomes a new version (Owner)',
        params: versionParams,
        response: responses(itemEnvelope(automation)),
      },
    },
    async (request) => ({ ok: true, item: await restoreAutomationVersion(svc, rt, request.actor, request.params.automationId, request.params.version) }),
  );

  app.get<{ Params: { workspaceId: string }; Querystring: WorkspaceRunQuery }>(
    '/workspaces/:workspaceId/runs',
    {
      schema: {
        tags,
        summary: "Runs of every automation of a workspace, newest first (any member)",
        params: params('workspaceId'),
        querystring: {
          type: 'object',
          properties: {
            status: { type: 'string', enum: RUN_STATUSES },
            automationId: { type: 'string', minLength: 1 },
            createdFrom: { type: 'string', format: 'date-time', description: 'only runs created at or after this time' },
            createdBefore: { type: 'string', format: 'date-time', description: 'only runs created before this time' },
            limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
            before: { type: 'string', minLength: 1, description: 'cursor: the last run id of the previous page' },
          },
        },
        response: responses(itemsEnvelope(run)),
      },
    },
    async (request) => ({ ok: true, items: await listWorkspaceRuns(svc, rt, request.actor, request.params.workspaceId, request.query) }),
  );

  app.get<{ Params: { workspaceId: string }; Querystring: ApprovalQuery }>(
    '/workspaces/:workspaceId/approvals',
    {
      schema: {
        tags,
        summary: 'Approvals waiting for a decision across the automations of a workspace, newest first (any member)',
        params: params('workspaceId'),
        querystring: {
          type: 'object',
          properties: {
            automationId: { type: 'string', minLength: 1 },
            approver: { type: 'string', minLength: 1, maxLength: 40, description: 'only approvals naming this handle among their approvers' },
            limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
            before: { type: 'string', minLength: 1, description: 'cursor: the last runId of the previous page' },
          },
        },
        response: responses(itemsEnvelope(pendingApproval)),
      },
    },
    async (request) => ({ ok: true, items: await listPendingApprovals(svc, rt, request.actor, request.params.workspaceId, request.query) }),
  );

  app.get<{ Params: { automationId: string; runId: string } }>(
    '/automations/:automationId/runs/:runId',
    {
      schema: {
        tags,
        summary: "One run with each step's input, output, error, attempts and duration (any member)",
        params: params('automationId', 'runId'),
        response: responses(itemEnvelope(run)),
      },
    },
    async (request) => ({ ok: true, item: await getRun(svc, rt, request.actor, request.params.automationId, request.params.runId) }),
  );

  for (const [verb, approve] of [
    ['approve', true],
    ['reject', false],
  ] as const) {
    app.post<{ Params: { automationId: string; runId: string }; Body: { comment?: string } | undefined }>(
      `/automations/:automationId/runs/:runId/${verb}`,
      {
        preValidation: emptyBodyAsObject,
        schema: {
          tags,
          summary: `${approve ? 'Approve' : 'Reject'} the approval a run waits on (approvers, or Participant and above)`,
          params: params('automationId', 'runId'),
          body: decisionBody,
          response: responses(itemEnvelope(run), { 409: { $ref: 'ErrorEnvelope#' } }),
        },
      },
      async (request) => ({
        ok: true,
        item: await decideRun(svc, rt, request.actor, request.params.automationId, request.params.runId, approve, request.body?.comment),
      }),
    );
  }

  app.post<{ Params: { automationId: string; runId: string }; Body: ReplayOptions | undefined }>(
    '/automations/:automationId/runs/:runId/replay',
    {
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: 'Replay a failed or cancelled run as a new run (Owner): from the start or from its failed step',
        params: params('automationId', 'runId'),
        body: { type: 'object', additionalProperties: false, properties: replayProperties },
        response: responses(itemEnvelope(run), { 409: { $ref: 'ErrorEnvelope#' } }),
      },
    },
    async (request) => ({ ok: true, item: await replayRun(svc, rt, request.actor, request.params.automationId, request.params.runId, request.body ?? {}) }),
  );

  app.post<{
    Params: { automationId: string };
    Body: ReplayOptions & { status: 'failed' | 'cancelled'; createdFrom?: string; createdBefore?: string; limit: number };
  }>(
    '/automations/:automationId/runs/replay',
    {
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: `Bulk replay (Owner): the newest failed or cancelled runs matching a time window, up to ${MAX_BULK_REPLAY}, replayed oldest first`,
        params: params('automationId'),
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            ...replayProperties,
            status: { type: 'string', enum: ['failed', 'cancelled'], default: 'failed' },
            createdFrom: { type: 'string', format: 'date-time' },
            createdBefore: { type: 'string', format: 'date-time' },
            limit: { type: 'integer', minimum: 1, maximum: MAX_BULK_REPLAY, default: MAX_BULK_REPLAY },
          },
        },
        response: responses(itemsEnvelope(run)),
      },
    },
    async (request) => ({ ok: true, items: await replayRuns(svc, rt, request.actor, request.params.automationId, request.body) }),
  );

  const tokenProperty = { token: { type: 'string', minLength: 1, maxLength: 200 } } as const;

  app.post<{ Body: { token: string } }>(
    '/approvals/inspect',
    {
      schema: {
        tags,
        summary: 'The approval behind a decision link (signed-in members of its workspace)',
        body: { type: 'object', required: ['token'], additionalProperties: false, properties: tokenProperty },
        response: responses(itemEnvelope(decisionRequest)),
      },
    },
    async (request) => ({ ok: true, item: await inspectDecisionLink(svc, rt, request.actor, request.body.token) }),
  );

  app.post<{ Body: { token: string; decision: 'approve' | 'reject'; comment?: string } }>(
    '/approvals/decide',
    {
      schema: {
        tags,
        summary: 'Decide the approval behind a decision link as the signed-in person; the link is then used up',
        body: {
          type: 'object',
          required: ['token', 'decision'],
          additionalProperties: false,
          properties: { ...tokenProperty, decision: { type: 'string', enum: ['approve', 'reject'] }, comment: { type: 'string', maxLength: 2000 } },
        },
        response: responses(itemEnvelope(run), { 409: { $ref: 'ErrorEnvelope#' } }),
      },
    },
    async (request) => ({
      ok: true,
      item: await decideWithLink(svc, rt, request.actor, request.body.token, request.body.decision === 'approve', request.body.comment),
    }),
  );

  app.post<{ Params: { automationId: string; runId: string } }>(
    '/automations/:automationId/runs/:runId/cancel',
    {
      schema: { tags, summary: 'Cancel a run that has not finished (Owner)', params: params('automationId', 'runId'), response: responses(itemEnvelope(run)) },
    },
    async (request) => ({ ok: true, item: await cancelRun(svc, rt, request.actor, request.params.automationId, request.params.runId) }),
  );
};
