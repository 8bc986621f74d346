import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { findStep, variableProblems, type AutomationDefinition } from '@taskspace/engine';
import { badRequest } from '../../errors';
import { fromEngineError } from '../../http/engine-errors';
import { ItemEnvelope, Responses, stringEnum } from '../../http/schemas';
import { requireAutomation } from './service';

/** `POST /automations/{automationId}/steps/{stepId}/test`: path. */
const StepTestParams = Type.Object({ automationId: Type.String({ minLength: 1 }), stepId: Type.String({ minLength: 1 }) });

/** The body: the draft (optional), the trigger sample and the pinned outputs. */
const StepTestBody = Type.Object(
  {
    definition: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'a draft definition (name, trigger, actions…); default: the saved one' }),
    ),
    trigger: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'the trigger sample: `trigger.*` variables (default {})' }),
    ),
    steps: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'pinned outputs of earlier steps by step id: `steps.<id>`' }),
    ),
  },
  { additionalProperties: false },
);

/** What a step test did. */
const StepTestItem = Type.Object(
  {
    stepId: Type.String(),
    type: Type.String({ description: "the step's kind" }),
    path: Type.String({ description: "the step's place in the definition, e.g. actions[1].then[0]" }),
    status: stringEnum(['succeeded', 'failed'] as const),
    sideEffects: Type.Boolean({
      description: "true when the step's kind changes something outside the run (a task, an HTTP call…): the test did it for real",
    }),
    input: Type.Optional(Type.Unknown({ description: 'the rendered parameters as journalled (secrets masked)' })),
    output: Type.Optional(Type.Unknown({ description: "the step's output (secrets masked): the sample later steps can pin" })),
    error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: true })),
    durationMs: Type.Optional(Type.Integer({ description: 'ms' })),
    runId: Type.String({ description: 'the test run that records the step (test: true)' }),
  },
  { additionalProperties: false },
);

/** The step of `definition` at `path` (a field path) or inside it. */
function within(field: string, path: string): boolean {
  return field === path || field.startsWith(`${path}.`) || field.startsWith(`${path}[`);
}

/**
 * Step tests (docs "Automations", "Step tests"): the Owner runs one step of the saved definition
 * or of a draft, with a trigger sample and the pinned outputs of earlier steps, recorded as a test
 * run (`engine/src/steps/step-test.ts`). The draft must be a valid definition (400 naming the field);
 * the step's templates must name only what it can see (400 `unknown_variable`, also for a
 * variable the samples lack); a loop, parallel, approval, delay, wait.event or automation.run
 * step is refused (400 `not_testable`). Unknown step 404, non-Owner 403.
 */
export function stepTestRoutes(plugin: FastifyInstance, tags: string[]): void {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/automations/:automationId/steps/:stepId/test',
    {
      schema: {
        tags,
        summary: 'Test one step with a trigger sample and pinned outputs of earlier steps (Owner); recorded as a test run',
        description:
          'Runs only that step, once (no retries, no error path), within 60 s. A step whose kind has `sideEffects` acts for real. A `branch` evaluates its conditions only.',
        params: StepTestParams,
        body: StepTestBody,
        response: Responses(ItemEnvelope(StepTestItem)),
      },
    },
    async (request) => {
      const svc = app.services;
      const rt = app.automations;
      const { automationId, stepId } = request.params;
      const { automation } = await requireAutomation(svc, rt, request.actor, automationId, 'Owner', 'testing a step');
      let definition: AutomationDefinition;
      try {
        definition = request.body.definition === undefined ? automation.definition : rt.engine.validate(request.body.definition);
      } catch (error) {
        throw fromEngineError(error);
      }
      let found: ReturnType<typeof findStep>;
      try {
        found = findStep(definition, stepId, rt.engine.kinds);
      } catch (error) {
        throw fromEngineError(error);
      }
      const secrets = (
        await svc.store.run(
          svc.store.sql.all<{ name: string }>('SELECT name FROM workspace_secrets WHERE workspace_id = ?', [automation.workspaceId]),
        )
      ).map((r) => r.name);
      const problem = variableProblems(definition, { secrets }).find((p) => within(p.path, found.path));
      if (problem) throw badRequest(problem.path, problem.reason, problem.message);
      let result: Awaited<ReturnType<typeof rt.engine.testStep>>;
      try {
        result = await rt.engine.testStep(automation, {
          definition,
          stepId,
          trigger: request.body.trigger ?? {},
          steps: request.body.steps ?? {},
        });
      } catch (error) {
        throw fromEngineError(error);
      }
      const { step, run } = result;
      const error = step?.error ?? run.error;
      return {
        ok: true,
        item: {
          stepId,
          type: found.action.type,
          path: result.path,
          status: step?.status === 'succeeded' ? ('succeeded' as const) : ('failed' as const),
          sideEffects: result.sideEffects,
          ...(step?.input !== undefined ? { input: step.input } : {}),
          ...(step?.status === 'succeeded' ? { output: step.output ?? null } : {}),
          ...(error ? { error } : {}),
          ...(step?.durationMs !== undefined ? { durationMs: step.durationMs } : {}),
          runId: run.id,
        },
      };
    },
  );
}
