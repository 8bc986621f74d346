/**
 * Builds the published JSON Schema (draft-07) of an automation definition from a list of kinds:
 * one `if`/`then` clause per kind, so that the schema applies only to actions (triggers) of that
 * type and errors name the right fields.
 */
import { Type, type TObject } from '@sinclair/typebox';
import type { ActionKindDeclaration, TriggerKindDeclaration } from './kind';
import { Enum, OPERATORS, STEP_ID, Steps, TriggerFilter } from './parts';

/** A step attempt's time limit, in ms (steps that do work). */
const stepTimeout = Type.Integer({
  minimum: 1,
  maximum: 300_000,
  title: 'Time limit (ms)',
  description: "One attempt's limit; past it the attempt fails with STEP_TIMEOUT.",
});

/** The fields every action has, described once (the catalogue's `commonActionParameters`). */
export const COMMON_ACTION_PARAMETERS = Type.Object({
  id: Type.String({
    pattern: STEP_ID,
    title: 'Step id',
    description: 'Later steps read the output as steps.<id>. Filled in as step1, step2... when absent.',
  }),
  name: Type.Optional(Type.String({ maxLength: 200, title: 'Name' })),
  retry: Type.Optional(
    Type.Object(
      {
        maxAttempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, title: 'Attempts', description: 'Including the first.' })),
        initialDelayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400_000, title: 'First delay (ms)' })),
        factor: Type.Optional(Type.Number({ minimum: 1, maximum: 10, title: 'Factor' })),
        maxDelayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400_000, title: 'Longest delay (ms)' })),
      },
      {
        additionalProperties: false,
        title: 'Retry',
        description: 'For transient failures only (network errors, timeouts, HTTP 5xx and 429).',
      },
    ),
  ),
  disabled: Type.Optional(Type.Boolean({ title: 'Disabled', description: 'Skipped: not run and not journalled, with its nested steps.' })),
  onError: Type.Optional(
    Type.Unsafe({
      title: 'On error',
      description:
        'fail ends the run; continue records the failure and goes on; {then} runs those steps with `error` in scope, then goes on.',
      oneOf: [
        Enum(['fail', 'continue'], { title: 'Fail or continue' }),
        Type.Object({ then: Steps({ title: 'Error steps', minItems: 1 }) }, { additionalProperties: false, title: 'Run steps' }),
      ],
    }),
  ),
  timeoutMs: Type.Optional(stepTimeout),
});

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const requiredOf = (o: TObject): string[] => (o.required as string[] | undefined) ?? [];

/** A trigger kind's parameters as published: its own plus `filter` (every kind) and `includeOwnChanges` (task events). */
export function triggerParameters(kind: TriggerKindDeclaration): TObject {
  return Type.Object(
    {
      ...kind.parameters.properties,
      ...(kind.ownChanges
        ? {
            includeOwnChanges: Type.Optional(
              Type.Boolean({
                title: 'Include own changes',
                default: false,
                description: "Also start on changes made by this automation's own runs.",
              }),
            ),
          }
        : {}),
      filter: Type.Optional(TriggerFilter()),
    },
    { additionalProperties: false },
  );
}

/** The `if`/`then` clause of one trigger kind (its `then` is the trigger's schema). */
export function triggerClause(kind: TriggerKindDeclaration) {
  const parameters = triggerParameters(kind);
  const required = requiredOf(parameters);
  return {
    if: { required: ['type'], properties: { type: { const: kind.type } } },
    then: {
      ...(required.length ? { required } : {}),
      additionalProperties: false,
      properties: { type: {}, ...parameters.properties },
      ...kind.constraints,
    },
  };
}

/** The `if`/`then` clause of one action kind (its `then` is the step's schema). */
export function actionClause(kind: ActionKindDeclaration) {
  const { id, name, retry, disabled, onError } = COMMON_ACTION_PARAMETERS.properties;
  const properties = {
    type: { const: kind.type },
    id,
    name,
    retry,
    disabled,
    onError,
    ...(kind.timeout ? { timeoutMs: stepTimeout } : {}),
    ...kind.parameters.properties,
  };
  return {
    if: { required: ['type'], properties: { type: { const: kind.type } } },
    then: {
      type: 'object',
      required: ['type', ...requiredOf(kind.parameters)],
      additionalProperties: false,
      properties,
      ...kind.constraints,
    },
  };
}

/** The automation schema for `triggers` and `actions` (see the module comment). Plain JSON. */
export function buildAutomationSchema(triggers: readonly TriggerKindDeclaration[], actions: readonly ActionKindDeclaration[]) {
  const rule = Type.Object(
    {
      left: Type.Unsafe({ type: ['string', 'number', 'boolean'] }),
      operator: Enum(OPERATORS, { title: 'Operator' }),
      right: Type.Optional(Type.Unsafe({ type: ['string', 'number', 'boolean'] })),
    },
    { additionalProperties: false },
  );
  const group = Type.Object(
    { allOf: Type.Array(Type.Unsafe({ $ref: '#/definitions/rule' }), { minItems: 1, maxItems: 50 }) },
    { additionalProperties: false },
  );
  return plain({
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://taskspace.dev/schemas/automation.json',
    title: 'Taskspace automation',
    type: 'object',
    required: ['name', 'trigger', 'actions'],
    additionalProperties: false,
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[^\\r\\n]*$' },
      description: { type: 'string', maxLength: 2000 },
      trigger: { $ref: '#/definitions/trigger' },
      actions: { type: 'array', maxItems: 200, items: { $ref: '#/definitions/action' } },
      timeoutMs: { type: 'integer', minimum: 1000, maximum: 2_592_000_000 },
      retention: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: { days: { type: 'integer', minimum: 1, maximum: 3650 }, failedDays: { type: 'integer', minimum: 1, maximum: 3650 } },
      },
      concurrency: { type: 'integer', minimum: 1, maximum: 1000 },
    },
    definitions: {
      trigger: {
        type: 'object',
        required: ['type'],
        properties: { type: { enum: triggers.map((k) => k.type) } },
        allOf: triggers.filter((k) => !k.ownSchema).map(triggerClause),
      },
      rule,
      conditions: Type.Object({ anyOf: Type.Array(group, { minItems: 1, maxItems: 50 }) }, { additionalProperties: false }),
      action: {
        type: 'object',
        required: ['type'],
        properties: { type: { enum: actions.map((k) => k.type) } },
        allOf: actions.filter((k) => !k.ownSchema).map(actionClause),
      },
    },
  });
}
