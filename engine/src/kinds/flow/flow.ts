/**
 * The control-flow kinds, which the executor runs itself (`steps/control-steps.ts`, `control.ts`,
 * `sub-run.ts`): branch, approval, loop, delay, wait for an event, parallel branches and
 * run another automation. Their TS types are in `types.ts` (they hold step lists).
 */
import { Type } from '@sinclair/typebox';
import { regexOf } from '../../definition/patterns';
import type { DefinitionProblem } from '../../definition/validate';
import { walkActions } from '../../definition/walk';
import type { Action } from '../../definition/types';
import type { BranchAction, ParallelAction } from './types';
import { defineAction } from '../kind';
import { ConditionsRef, Dict, Enum, JsonTemplate, Ref, Steps, Template, TEMPLATE_MAX, VALUE_NAME } from '../parts';

/** Default and largest `maxIterations` of a loop. */
export const LOOP_LIMITS = { defaultMaxIterations: 1000, maxIterations: 10_000 } as const;
/** The name of an event a `wait.event` step waits for. */
export const EVENT_NAME = '^[A-Za-z0-9_.-]{1,100}$';

const pathOf = (segments: (string | number)[]) =>
  segments.reduce<string>((acc, s) => (typeof s === 'number' ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
const flow = { category: 'Flow', sideEffects: false } as const;
const minutes = (title: string, description: string) => Type.Number({ exclusiveMinimum: 0, maximum: 525_600, title, description });

/** `branch`. */
export const BRANCH_KIND = defineAction({
  ...flow,
  type: 'branch',
  title: 'If / else',
  summary: 'Runs one list of steps or another depending on conditions.',
  icon: 'git-branch',
  nested: ['then', 'else'],
  parameters: Type.Object({
    conditions: ConditionsRef({ title: 'Conditions' }),
    then: Type.Optional(Steps({ title: 'Then' })),
    else: Type.Optional(Steps({ title: 'Else' })),
  }),
  output: Type.Object({ result: Type.Boolean() }, { title: 'Outcome' }),
  check(action, path) {
    return matchesProblems((action as unknown as BranchAction).conditions, [...path, 'conditions']);
  },
});

/** Static `matches` patterns of conditions that do not compile, each named by its field. */
export function matchesProblems(conditions: BranchAction['conditions'], path: (string | number)[]): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  conditions.anyOf.forEach((g, gi) =>
    g.allOf.forEach((r, ri) => {
      if (r.operator !== 'matches' || typeof r.right !== 'string' || r.right.includes('{')) return;
      try {
        regexOf(r.right);
      } catch (error) {
        const where = pathOf([...path, 'anyOf', gi, 'allOf', ri, 'right']);
        problems.push({ path: where, reason: 'invalid_format', message: `${where}: ${(error as Error).message}` });
      }
    }),
  );
  return problems;
}

/** `approval`. */
export const APPROVAL_KIND = defineAction({
  ...flow,
  type: 'approval',
  title: 'Ask for approval',
  summary: 'Pauses the run until a member approves or rejects it.',
  icon: 'user-check',
  nested: ['then', 'else'],
  literal: ['approvers'],
  parameters: Type.Object({
    message: Type.Optional(Template({ title: 'Message', description: 'Shown to approvers.' })),
    approvers: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100, title: 'Handle', 'x-picker': 'member' }), {
        maxItems: 100,
        title: 'Approvers',
        description: 'Absent: any member with the Participant role or above.',
      }),
    ),
    timeoutMinutes: Type.Optional(minutes('Timeout (minutes)', 'Absent: wait until someone decides.')),
    onTimeout: Type.Optional(Enum(['approve', 'reject'], { title: 'At the timeout', default: 'reject' })),
    onReject: Type.Optional(
      Enum(['end', 'else'], {
        title: 'When rejected',
        default: 'end',
        description: 'end: the run ends `rejected`; else: run the else steps and go on.',
      }),
    ),
    then: Type.Optional(Steps({ title: 'When approved' })),
    else: Type.Optional(Steps({ title: 'When rejected' })),
  }),
  output: Type.Object(
    {
      decision: Type.String(),
      decidedBy: Type.Union([Type.String(), Type.Null()]),
      decidedAt: Type.String(),
      comment: Type.Optional(Type.String()),
      timedOut: Type.Boolean(),
    },
    { title: 'Decision' },
  ),
});

/** `loop`. */
export const LOOP_KIND = defineAction({
  ...flow,
  type: 'loop',
  title: 'Loop over items',
  summary: 'Runs steps once per item of a list.',
  icon: 'repeat',
  nested: ['actions'],
  parameters: Type.Object({
    items: Type.Union(
      [
        Type.String({ maxLength: TEMPLATE_MAX, title: 'Template' }),
        Type.Array(Type.Unknown(), { maxItems: LOOP_LIMITS.maxIterations, title: 'List' }),
      ],
      {
        title: 'Items',
        'x-editor': 'template',
        examples: ['{{ trigger.items }}'],
      },
    ),
    maxIterations: Type.Optional(
      Type.Integer({ minimum: 1, maximum: LOOP_LIMITS.maxIterations, default: LOOP_LIMITS.defaultMaxIterations, title: 'Most items' }),
    ),
    actions: Steps({ title: 'Steps' }),
  }),
  output: Type.Object({ count: Type.Integer(), iterations: Type.Array(Dict(Type.Unknown())) }, { title: 'Iterations' }),
});

/** `delay`. */
export const DELAY_KIND = defineAction({
  ...flow,
  category: 'Time',
  type: 'delay',
  title: 'Wait',
  summary: 'Waits for a duration or until a time.',
  icon: 'timer',
  parameters: Type.Object({
    seconds: Type.Optional(Type.Number({ minimum: 0, title: 'Seconds' })),
    minutes: Type.Optional(Type.Number({ minimum: 0, title: 'Minutes' })),
    hours: Type.Optional(Type.Number({ minimum: 0, title: 'Hours' })),
    days: Type.Optional(Type.Number({ minimum: 0, maximum: 3650, title: 'Days' })),
    until: Type.Optional(Template({ title: 'Until', description: 'An ISO 8601 time; instead of a duration.' })),
  }),
  constraints: {
    anyOf: [{ required: ['seconds'] }, { required: ['minutes'] }, { required: ['hours'] }, { required: ['days'] }, { required: ['until'] }],
  },
  check(action, path) {
    if (action.until === undefined || ![action.seconds, action.minutes, action.hours, action.days].some((v) => v !== undefined)) return [];
    return [
      { path: pathOf([...path, 'until']), reason: 'invalid_value', message: `${pathOf(path)}: give either until or a duration, not both` },
    ];
  },
});

/** `wait.event`. */
export const WAIT_EVENT_KIND = defineAction({
  ...flow,
  category: 'Inbound',
  type: 'wait.event',
  title: 'Wait for an event',
  summary: 'Waits until an event is sent to the run (or its resume URL is called).',
  icon: 'hourglass',
  parameters: Type.Object({
    event: Type.String({ pattern: EVENT_NAME, title: 'Event name', examples: ['payment.confirmed'] }),
    timeoutMinutes: Type.Optional(minutes('Timeout (minutes)', 'Past it the step fails with EVENT_TIMEOUT.')),
  }),
});

/** `parallel`. */
export const PARALLEL_KIND = defineAction({
  ...flow,
  type: 'parallel',
  title: 'Run in parallel',
  summary: 'Runs named branches of steps at the same time and joins them.',
  icon: 'split',
  nested: ['branches'],
  parameters: Type.Object({
    branches: Dict(Steps({ title: 'Steps', minItems: 1 }), {
      minProperties: 2,
      maxProperties: 10,
      propertyNames: { pattern: VALUE_NAME },
      title: 'Branches',
      'x-editor': 'steps',
    }),
    join: Type.Optional(
      Enum(['all', 'first'], {
        title: 'Join',
        default: 'all',
        description: 'all: wait for every branch; first: the first to finish (others stop).',
      }),
    ),
  }),
  check(action, path) {
    // One run waits on one thing at a time: a person's decision or an event cannot wait beside another branch.
    const problems: DefinitionProblem[] = [];
    for (const [name, list] of Object.entries((action as unknown as ParallelAction).branches)) {
      walkActions(
        list as Action[],
        (inner, at) => {
          if (inner.type !== 'approval' && inner.type !== 'wait.event') return;
          const where = pathOf(at);
          problems.push({ path: where, reason: 'invalid_value', message: `${where}: a parallel branch may not hold ${inner.type} steps` });
        },
        [...path, 'branches', name],
      );
    }
    return problems;
  },
});

/** `automation.run`. */
export const RUN_AUTOMATION_KIND = defineAction({
  type: 'automation.run',
  title: 'Run another automation',
  summary: 'Starts a run of another automation, and by default waits for it.',
  category: 'Runs',
  icon: 'workflow',
  sideEffects: true,
  parameters: Type.Object({
    automationId: Ref('automation', { title: 'Automation' }),
    input: Type.Optional(
      Dict(JsonTemplate({ title: 'Value' }), {
        maxProperties: 100,
        propertyNames: { pattern: VALUE_NAME },
        title: 'Input',
        description: 'Its trigger variables.',
      }),
    ),
    wait: Type.Optional(Type.Boolean({ title: 'Wait for it', default: true })),
  }),
  output: Type.Object(
    { runId: Type.String(), status: Type.String(), steps: Type.Optional(Dict(Type.Unknown())), response: Type.Optional(Type.Unknown()) },
    { title: 'Run' },
  ),
});
