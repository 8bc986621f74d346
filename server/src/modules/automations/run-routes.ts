/**
 * The runs of automations over HTTP (README "Automations", "API"): an automation's runs and one
 * run with its journal (any member), approvals (approvers, or Participant and above) and decision
 * links, replay and cancel (Owner); and a workspace's runs and pending approvals across its
 * automations (`/api/v1/workspaces/{id}/runs`, `…/approvals`).
 */
import type { RunStatus } from '@taskspace/engine';
import type { FastifyPluginAsync } from 'fastify';
import { itemEnvelope, itemsEnvelope, params, responses } from '../../http/schemas';
import { cancelRun, decideRun, getRun, listRuns } from './service';
import { MAX_BULK_REPLAY, replayRun, replayRuns, type BulkReplayFilter, type ReplayOptions } from './replays';
import { decideWithLink, inspectDecisionLink } from './decision-links';
import { listPendingApprovals, listWorkspaceRuns, type ApprovalQuery, type WorkspaceRunQuery } from './workspace-runs';
import { decisionBody, decisionRequest, emptyBodyAsObject, pendingApproval, replayProperties, RUN_STATUSES, run } from './run-schemas';

/** The run routes under `/api/v1`. */
export const runRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;
  const rt = app.automations;
  const tags = ['automations'];

  app.get<{ Params: { automationId: string }; Querystring: { status?: RunStatus; limit: number; before?: string; requestId?: string } }>(
    '/automations/:automationId/runs',
    {
      schema: {
        tags,
        summary: "An automation's runs, newest first (any member)",
        params: params('automationId'),
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            status: { type: 'string', enum: RUN_STATUSES },
            limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
            before: { type: 'string', minLength: 1 },
            requestId: {
              type: 'string',
              minLength: 1,
              description: "only the run started by this inbound request (the intake reply's requestId)",
            },
          },
        },
        response: responses(itemsEnvelope(run)),
      },
    },
    async (request) => ({ ok: true, items: await listRuns(svc, rt, request.actor, request.params.automationId, request.query) }),
  );

  app.get<{ Params: { workspaceId: string }; Querystring: WorkspaceRunQuery }>(
    '/workspaces/:workspaceId/runs',
    {
      schema: {
        tags,
        summary: 'Runs of every automation of a workspace, newest first (any member)',
        params: params('workspaceId'),
        querystring: {
          type: 'object',
          additionalProperties: false,
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
            approver: {
              type: 'string',
              minLength: 1,
              maxLength: 40,
              description: 'only approvals naming this handle among their approvers',
            },
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
        summary:
          'Replay a failed or cancelled run as a new run (Owner): from the start or from its failed step; 409 when it was already replayed',
        params: params('automationId', 'runId'),
        body: { type: 'object', additionalProperties: false, properties: replayProperties },
        response: responses(itemEnvelope(run), { 409: { $ref: 'ErrorEnvelope#' } }),
      },
    },
    async (request) => ({
      ok: true,
      item: await replayRun(svc, rt, request.actor, request.params.automationId, request.params.runId, request.body ?? {}),
    }),
  );

  app.post<{ Params: { automationId: string }; Body: BulkReplayFilter }>(
    '/automations/:automationId/runs/replay',
    {
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: `Bulk replay (Owner): the newest failed or cancelled runs matching a time window, up to ${MAX_BULK_REPLAY}, replayed oldest first; runs already replayed never again, replays only with includeReplays`,
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
            includeReplays: {
              type: 'boolean',
              default: false,
              description: 'also replay runs that are replays themselves (that failed again)',
            },
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
          properties: {
            ...tokenProperty,
            decision: { type: 'string', enum: ['approve', 'reject'] },
            comment: { type: 'string', maxLength: 2000 },
          },
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
      schema: {
        tags,
        summary: 'Cancel a run that has not finished (Owner)',
        params: params('automationId', 'runId'),
        response: responses(itemEnvelope(run)),
      },
    },
    async (request) => ({ ok: true, item: await cancelRun(svc, rt, request.actor, request.params.automationId, request.params.runId) }),
  );
};
