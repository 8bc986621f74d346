/**
 * The runs of automations over HTTP (README "Automations", "API"): an automation's runs and one
 * run with its journal (any member), approvals (approvers, or Participant and above) and decision
 * links, replay and cancel (Owner); and a workspace's runs and pending approvals across its
 * automations (`/api/v1/workspaces/{id}/runs`, `…/approvals`).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { cancelRun, decideRun, getRun, listRuns } from './service';
import { MAX_BULK_REPLAY, replayRun, replayRuns } from './replays';
import { decideWithLink, inspectDecisionLink } from './decision-links';
import { listPendingApprovals, listWorkspaceRuns } from './workspace-runs';
import {
  ApprovalListQuery,
  BulkReplayBody,
  DecideLinkBody,
  DecisionBody,
  InspectLinkBody,
  ReplayBody,
  RunListQuery,
  WorkspaceRunListQuery,
  approvalsResponses,
  automationParams,
  decisionRequestResponses,
  emptyBodyAsObject,
  runOrConflictResponses,
  runParams,
  runResponses,
  runsResponses,
  workspaceParams,
} from './run-schemas';

/** The run routes under `/api/v1`. */
export const runRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const rt = app.automations;
  const tags = ['automations'];

  app.get(
    '/automations/:automationId/runs',
    {
      schema: {
        tags,
        summary: "An automation's runs, newest first (any member)",
        params: automationParams,
        querystring: RunListQuery,
        response: runsResponses,
      },
    },
    async (request) => ({ ok: true, items: await listRuns(svc, rt, request.actor, request.params.automationId, request.query) }),
  );

  app.get(
    '/workspaces/:workspaceId/runs',
    {
      schema: {
        tags,
        summary: 'Runs of every automation of a workspace, newest first (any member)',
        params: workspaceParams,
        querystring: WorkspaceRunListQuery,
        response: runsResponses,
      },
    },
    async (request) => ({ ok: true, items: await listWorkspaceRuns(svc, rt, request.actor, request.params.workspaceId, request.query) }),
  );

  app.get(
    '/workspaces/:workspaceId/approvals',
    {
      schema: {
        tags,
        summary: 'Approvals waiting for a decision across the automations of a workspace, newest first (any member)',
        params: workspaceParams,
        querystring: ApprovalListQuery,
        response: approvalsResponses,
      },
    },
    async (request) => ({ ok: true, items: await listPendingApprovals(svc, rt, request.actor, request.params.workspaceId, request.query) }),
  );

  app.get(
    '/automations/:automationId/runs/:runId',
    {
      schema: {
        tags,
        summary: "One run with each step's input, output, error, attempts and duration (any member)",
        params: runParams,
        response: runResponses,
      },
    },
    async (request) => ({ ok: true, item: await getRun(svc, rt, request.actor, request.params.automationId, request.params.runId) }),
  );

  for (const [verb, approve] of [
    ['approve', true],
    ['reject', false],
  ] as const) {
    app.post(
      `/automations/:automationId/runs/:runId/${verb}`,
      {
        preValidation: emptyBodyAsObject,
        schema: {
          tags,
          summary: `${approve ? 'Approve' : 'Reject'} the approval a run waits on (approvers, or Participant and above)`,
          params: runParams,
          body: DecisionBody,
          response: runOrConflictResponses,
        },
      },
      async (request) => ({
        ok: true,
        item: await decideRun(svc, rt, request.actor, request.params.automationId, request.params.runId, approve, request.body.comment),
      }),
    );
  }

  app.post(
    '/automations/:automationId/runs/:runId/replay',
    {
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary:
          'Replay a failed or cancelled run as a new run (Owner): from the start or from its failed step; 409 when it was already replayed',
        params: runParams,
        body: ReplayBody,
        response: runOrConflictResponses,
      },
    },
    async (request) => ({
      ok: true,
      item: await replayRun(svc, rt, request.actor, request.params.automationId, request.params.runId, request.body),
    }),
  );

  app.post(
    '/automations/:automationId/runs/replay',
    {
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: `Bulk replay (Owner): the newest failed or cancelled runs matching a time window, up to ${MAX_BULK_REPLAY}, replayed oldest first; runs already replayed never again, replays only with includeReplays`,
        params: automationParams,
        body: BulkReplayBody,
        response: runsResponses,
      },
    },
    async (request) => ({ ok: true, items: await replayRuns(svc, rt, request.actor, request.params.automationId, request.body) }),
  );

  app.post(
    '/approvals/inspect',
    {
      schema: {
        tags,
        summary: 'The approval behind a decision link (signed-in members of its workspace)',
        body: InspectLinkBody,
        response: decisionRequestResponses,
      },
    },
    async (request) => ({ ok: true, item: await inspectDecisionLink(svc, rt, request.actor, request.body.token) }),
  );

  app.post(
    '/approvals/decide',
    {
      schema: {
        tags,
        summary: 'Decide the approval behind a decision link as the signed-in person; the link is then used up',
        body: DecideLinkBody,
        response: runOrConflictResponses,
      },
    },
    async (request) => ({
      ok: true,
      item: await decideWithLink(svc, rt, request.actor, request.body.token, request.body.decision === 'approve', request.body.comment),
    }),
  );

  app.post(
    '/automations/:automationId/runs/:runId/cancel',
    {
      schema: { tags, summary: 'Cancel a run that has not finished (Owner)', params: runParams, response: runResponses },
    },
    async (request) => ({ ok: true, item: await cancelRun(svc, rt, request.actor, request.params.automationId, request.params.runId) }),
  );
};
