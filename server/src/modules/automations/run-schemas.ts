/**
 * The response shapes of the run routes (`run-routes.ts`) and of a test run (`routes.ts`), and the
 * body helper both use.
 */

/** Any JSON object. */
export const anyObject = { type: 'object', additionalProperties: true } as const;
/** The statuses of a run. */
export const RUN_STATUSES = ['queued', 'running', 'waiting', 'completed', 'failed', 'rejected', 'cancelled', 'skipped'] as const;

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
/** A run with its steps, as every run route answers it. */
export const run = {
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
    replayedBy: { type: 'string', description: 'the run that replays this one (single-run reads)' },
    steps: { type: 'array', items: step },
  },
} as const;

/** The options of a replay. */
export const replayProperties = {
  from: {
    type: 'string',
    enum: ['start', 'failed-step'],
    default: 'start',
    description: 'failed-step keeps the steps that succeeded (not run again)',
  },
  version: {
    type: 'string',
    enum: ['original', 'current'],
    default: 'original',
    description: "the run's own automation version, or the current one",
  },
} as const;

/** What a decision link shows before it is used. */
export const decisionRequest = {
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

/** One approval waiting for a decision, across a workspace. */
export const pendingApproval = {
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

/** The body of an approve or reject. */
export const decisionBody = {
  type: 'object',
  additionalProperties: false,
  properties: { comment: { type: 'string', maxLength: 2000 } },
} as const;

/** Lets a body-less POST through an optional-body schema: the body becomes `{}` before validation. */
export async function emptyBodyAsObject(request: { body: unknown }): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}
