import { Type, type Static } from '@sinclair/typebox';
import { RUN_STATUSES, STEP_STATUSES, type RunRecord, type StepRecord } from '@taskspace/engine';
import { stringEnum } from '../../http/schemas';
import { isoTime } from '../../platform/clock';

/**
 * The run item, declared once (README "Automations", "API"): the TypeBox schemas of a run and
 * its journalled steps (every run route answers with them; the OpenAPI document and the web's
 * types come from them), their types, and the one function that turns the engine's
 * `RunRecord` (and `StepRecord`s) into the item. Imports nothing of the server's modules, so the
 * run service, the run routes and the automation routes all take it from here.
 */

/** A failure as the engine records it (`ErrorInfo`): a run's error or a step's. */
const ErrorInfoSchema = Type.Object(
  {
    code: Type.String({ description: 'Machine-readable, e.g. TEMPLATE_ERROR, HTTP_STATUS, NETWORK_ERROR' }),
    message: Type.String(),
    transient: Type.Boolean({ description: 'true when a retry may succeed' }),
    status: Type.Optional(Type.Integer({ description: 'the HTTP status behind the failure' })),
    details: Type.Optional(Type.Unknown()),
    stepId: Type.Optional(Type.String({ description: 'the step that failed (run errors only)' })),
  },
  { additionalProperties: false },
);

/** A journalled step: times ISO 8601, durations in ms. */
const StepSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.String(),
    status: stringEnum(STEP_STATUSES),
    input: Type.Optional(Type.Unknown()),
    output: Type.Optional(Type.Unknown()),
    error: Type.Optional(ErrorInfoSchema),
    attempts: Type.Integer(),
    startedAt: Type.String({ format: 'date-time' }),
    finishedAt: Type.Optional(Type.String({ format: 'date-time' })),
    durationMs: Type.Optional(Type.Integer()),
    nextAttemptAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

/** The trigger of a run: its kind and variables (`trigger` in templates). */
const TriggerSchema = Type.Object(
  {
    type: Type.String(),
    variables: Type.Record(Type.String(), Type.Unknown()),
    eventId: Type.Optional(Type.String()),
    parent: Type.Optional(
      Type.Object(
        { runId: Type.String(), stepId: Type.String() },
        { additionalProperties: false, description: 'the run and step of a waiting automation.run step' },
      ),
    ),
    headers: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: "an inbound call's request headers, lowercase names, credential values [redacted]",
      }),
    ),
  },
  { additionalProperties: false },
);

/** What a waiting run waits for. */
const WaitingForSchema = Type.Object(
  { kind: stringEnum(['delay', 'approval', 'retry', 'automation', 'event'] as const), stepId: Type.String() },
  { additionalProperties: false },
);

/** A run (with its steps on single-run reads), as every run route answers it. Times ISO 8601. */
export const RunSchema = Type.Object(
  {
    id: Type.String(),
    automationId: Type.String(),
    version: Type.Integer(),
    status: stringEnum(RUN_STATUSES),
    test: Type.Boolean(),
    depth: Type.Integer(),
    trigger: TriggerSchema,
    createdAt: Type.String({ format: 'date-time' }),
    startedAt: Type.Optional(Type.String({ format: 'date-time' })),
    finishedAt: Type.Optional(Type.String({ format: 'date-time' })),
    wakeAt: Type.Optional(
      Type.String({ format: 'date-time', description: 'when a waiting run continues (delay end, retry, approval timeout)' }),
    ),
    waitingFor: Type.Optional(WaitingForSchema),
    error: Type.Optional(ErrorInfoSchema),
    replayOf: Type.Optional(Type.String({ description: 'the run this one replays' })),
    replayedBy: Type.Optional(Type.String({ description: 'the run that replays this one (single-run reads)' })),
    steps: Type.Optional(Type.Array(StepSchema)),
  },
  { additionalProperties: false },
);

/** A journalled step as the API returns it. Times ISO 8601, durations in ms. */
export type StepItem = Static<typeof StepSchema>;

/** A run as the API returns it (`steps` only on a single run). */
export type RunItem = Static<typeof RunSchema>;

function iso(ms: number | undefined): string | undefined {
  return ms === undefined ? undefined : isoTime(ms);
}

/** The API item of a journalled step. */
function stepItem(s: StepRecord): StepItem {
  const item: StepItem = { id: s.stepId, type: s.type, status: s.status, attempts: s.attempts, startedAt: isoTime(s.startedAt) };
  if (s.input !== undefined) item.input = s.input;
  if (s.output !== undefined) item.output = s.output;
  if (s.error !== undefined) item.error = s.error;
  if (s.finishedAt !== undefined) item.finishedAt = isoTime(s.finishedAt);
  if (s.durationMs !== undefined) item.durationMs = s.durationMs;
  if (s.nextAttemptAt !== undefined) item.nextAttemptAt = isoTime(s.nextAttemptAt);
  return item;
}

/** The API item of a run (with its steps when given). */
export function runItem(run: RunRecord, steps?: StepRecord[]): RunItem {
  const item: RunItem = {
    id: run.id,
    automationId: run.automationId,
    version: run.version,
    status: run.status,
    test: run.test,
    depth: run.depth,
    trigger: run.trigger,
    createdAt: isoTime(run.createdAt),
  };
  const optional: Partial<RunItem> = {
    startedAt: iso(run.startedAt),
    finishedAt: iso(run.finishedAt),
    wakeAt: iso(run.wakeAt),
    waitingFor: run.waitingOn,
    error: run.error,
    replayOf: run.replayOf,
  };
  for (const [k, v] of Object.entries(optional)) if (v !== undefined) (item as unknown as Record<string, unknown>)[k] = v;
  if (steps) item.steps = steps.map(stepItem);
  return item;
}
