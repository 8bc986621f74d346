/**
 * The schemas of the run routes (`run-routes.ts`, `run-events.ts`, `metrics.ts`) and of a test run
 * (`automations/routes.ts`), declared once with TypeBox, and the body helper they use. The
 * responses are exact: a run is what `runItem` (`run-item.ts`) returns, nothing more.
 */

import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { EVENT_NAME, RUN_STATUSES } from '@taskspace/engine';
import { ErrorRef, ItemEnvelope, ItemsEnvelope, Params, Responses, nullable, stringEnum } from '../../http/schemas';
import { DEFAULT_REPLAY_FROM, MAX_BULK_REPLAY } from './replays';
import { RunSchema } from './run-item';

/** The statuses of a run: the engine's one list. */
export { RUN_STATUSES };

/** Any JSON object (a trigger payload, a definition). */
export const anyObject = Type.Object({}, { additionalProperties: true });

/**
 * An object schema whose defaulted properties the document does not list as required (clients may
 * omit them), while the handler's type has them: the validator fills them in (`useDefaults`).
 */
function defaulted<P extends TProperties>(properties: P, options: { description?: string } = {}) {
  const { required: _required, ...schema } = Type.Object(properties, { additionalProperties: false, ...options });
  return Type.Unsafe<Static<TObject<P>>>(schema);
}

/** A run and its steps: declared once, with the mapper, in `run-item.ts`. */
export { RunSchema };

/** {@link RunSchema} under its former name (the test run of `automations/routes.ts`). */
export const run = RunSchema;

/** What a decision link shows before it is used. */
export const DecisionRequestSchema = Type.Object(
  {
    automationId: Type.String(),
    automationName: Type.String(),
    runId: Type.String(),
    stepId: Type.String(),
    message: Type.String(),
    approvers: Type.Array(Type.String()),
    expiresAt: Type.String({ format: 'date-time' }),
    pending: Type.Boolean({ description: 'whether the run still waits on this approval' }),
  },
  { additionalProperties: false },
);

/** One approval waiting for a decision, across a workspace. */
export const PendingApprovalSchema = Type.Object(
  {
    runId: Type.String(),
    automationId: Type.String(),
    automationName: Type.String(),
    stepId: Type.String(),
    message: Type.String(),
    approvers: Type.Array(Type.String(), { description: 'handles; empty: any member with the Participant role or above' }),
    requestedAt: Type.String({ format: 'date-time' }),
    timeoutAt: Type.Optional(Type.String({ format: 'date-time' })),
    youMayDecide: Type.Boolean(),
  },
  { additionalProperties: false },
);

/** Page size of the run and approval lists: 1..100, default 20. */
const listLimit = () => Type.Integer({ minimum: 1, maximum: 100, default: 20 });

/** Query of an automation's runs. */
export const RunListQuery = defaulted({
  status: Type.Optional(stringEnum(RUN_STATUSES)),
  limit: listLimit(),
  before: Type.Optional(Type.String({ minLength: 1 })),
  requestId: Type.Optional(
    Type.String({ minLength: 1, description: "only the run started by this inbound request (the intake reply's requestId)" }),
  ),
});

/** Query of a workspace's runs. */
export const WorkspaceRunListQuery = defaulted({
  status: Type.Optional(stringEnum(RUN_STATUSES)),
  automationId: Type.Optional(Type.String({ minLength: 1 })),
  createdFrom: Type.Optional(Type.String({ format: 'date-time', description: 'only runs created at or after this time' })),
  createdBefore: Type.Optional(Type.String({ format: 'date-time', description: 'only runs created before this time' })),
  limit: listLimit(),
  before: Type.Optional(Type.String({ minLength: 1, description: 'cursor: the last run id of the previous page' })),
});

/** Query of a workspace's pending approvals (other parameters are ignored, as they always were). */
export const ApprovalListQuery = (() => {
  const { required: _required, ...schema } = Type.Object({
    automationId: Type.Optional(Type.String({ minLength: 1 })),
    approver: Type.Optional(
      Type.String({ minLength: 1, maxLength: 40, description: 'only approvals naming this handle among their approvers' }),
    ),
    limit: listLimit(),
    before: Type.Optional(Type.String({ minLength: 1, description: 'cursor: the last runId of the previous page' })),
  });
  return Type.Unsafe<{ automationId?: string; approver?: string; limit: number; before?: string }>(schema);
})();

/** The options of a replay. */
const replayProperties = {
  from: Type.Optional(
    stringEnum(['start', 'failed-step'] as const, {
      default: DEFAULT_REPLAY_FROM,
      description:
        'failed-step (the default) keeps the steps that succeeded (not run again: a task they made is not made twice); start runs every step again',
    }),
  ),
  version: Type.Optional(
    stringEnum(['original', 'current'] as const, {
      default: 'original',
      description: "the run's own automation version, or the current one",
    }),
  ),
};

/** Body of replaying one run (may be empty). */
export const ReplayBody = Type.Object(replayProperties, { additionalProperties: false });

/** Body of a bulk replay (may be empty). */
export const BulkReplayBody = defaulted({
  ...replayProperties,
  status: stringEnum(['failed', 'cancelled'] as const, { default: 'failed' }),
  createdFrom: Type.Optional(Type.String({ format: 'date-time' })),
  createdBefore: Type.Optional(Type.String({ format: 'date-time' })),
  limit: Type.Integer({ minimum: 1, maximum: MAX_BULK_REPLAY, default: MAX_BULK_REPLAY }),
  includeReplays: Type.Boolean({ default: false, description: 'also replay runs that are replays themselves (that failed again)' }),
});

/** The body of an approve or reject (may be empty). */
export const DecisionBody = Type.Object({ comment: Type.Optional(Type.String({ maxLength: 2000 })) }, { additionalProperties: false });

const linkToken = Type.String({ minLength: 1, maxLength: 200 });

/** Body of `POST /approvals/inspect`. */
export const InspectLinkBody = Type.Object({ token: linkToken }, { additionalProperties: false });

/** Body of `POST /approvals/decide`. */
export const DecideLinkBody = Type.Object(
  { token: linkToken, decision: stringEnum(['approve', 'reject'] as const), comment: Type.Optional(Type.String({ maxLength: 2000 })) },
  { additionalProperties: false },
);

/** Path of an automation's runs. */
export const automationParams = Params('automationId');
/** Path of one run. */
export const runParams = Params('automationId', 'runId');
/** Path of a workspace's runs and approvals. */
export const workspaceParams = Params('workspaceId');

/** Responses of the run lists. */
export const runsResponses = Responses(ItemsEnvelope(RunSchema));
/** Responses of one run. */
export const runResponses = Responses(ItemEnvelope(RunSchema));
/** Responses of a decision or replay: the run; 409 when the run is not in a state for it. */
export const runOrConflictResponses = Responses(ItemEnvelope(RunSchema), { 409: ErrorRef });
/** Responses of the pending approvals. */
export const approvalsResponses = Responses(ItemsEnvelope(PendingApprovalSchema));
/** Responses of inspecting a decision link. */
export const decisionRequestResponses = Responses(ItemEnvelope(DecisionRequestSchema));

/** Path of `POST /runs/{runId}/events/{event}`. */
export const runEventParams = Type.Object({ runId: Type.String({ minLength: 1 }), event: Type.String({ pattern: EVENT_NAME }) });
/** Path of a resume URL. */
export const resumeParams = Params('runId', 'signature');

/** Responses of an accepted event: the run's id and its status after the event; 413 for a payload too large. */
export const sentResponses = Responses(
  ItemEnvelope(Type.Object({ runId: Type.String(), status: stringEnum(RUN_STATUSES) }, { additionalProperties: false })),
  { 409: ErrorRef, 413: ErrorRef },
);

/** Query of the metrics. */
export const MetricsQuery = Type.Object(
  {
    since: Type.Optional(
      Type.String({ format: 'date-time', description: 'only runs created at or after this time (default: every kept run)' }),
    ),
  },
  { additionalProperties: false },
);

const count = Type.Integer();

/** The metrics of an automation's runs (see `AutomationMetrics`). */
const MetricsSchema = Type.Object(
  {
    automationId: Type.String(),
    since: Type.Optional(Type.String({ format: 'date-time' })),
    total: count,
    counts: Type.Object(Object.fromEntries(RUN_STATUSES.map((s) => [s, count])) as Record<(typeof RUN_STATUSES)[number], typeof count>, {
      additionalProperties: false,
      description: 'runs by status, every status present',
    }),
    successRate: nullable(Type.Number(), { description: 'completed ÷ (completed + failed), 0..1; null when neither' }),
    durationMs: Type.Object({ p50: nullable(Type.Integer()), p95: nullable(Type.Integer()) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

/** Responses of the metrics. */
export const metricsResponses = Responses(ItemEnvelope(MetricsSchema));

/** Lets a body-less POST through an optional-body schema: the body becomes `{}` before validation. */
export async function emptyBodyAsObject(request: { body: unknown }): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}
