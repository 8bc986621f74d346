import { createContext, useCallback, useContext, useState } from 'react';
import { ApiError } from '../../api/client';
import { automationWrites } from '../api';
import type { paths } from '../../api/schema';
import type { Definition } from './model';

/** What `POST /api/v1/automations/{automationId}/steps/{stepId}/test` answers (docs "Automations", "Step tests"). */
export type StepTestResult =
  paths['/api/v1/automations/{automationId}/steps/{stepId}/test']['post']['responses'][200]['content']['application/json']['item'];

/** One card's step test: in flight, its result, or the service's refusal (400: unknown variable…). */
export interface StepTestState {
  running: boolean;
  result?: StepTestResult;
  error?: string;
}

/** The builder's step tests, as the cards read them. */
export interface StepTests {
  /** Why steps cannot be tested now (a new automation is not saved yet), or null. */
  unavailable: string | null;
  /** By step id. */
  states: Record<string, StepTestState>;
  /** Tests the step with the current draft, the trigger sample and the pinned outputs. */
  run(stepId: string): void;
  /** The step id opened from a run (`?step=`), shown highlighted. */
  highlight: string | null;
}

/** See {@link StepTests}. */
export const StepTestsContext = createContext<StepTests>({
  unavailable: 'Not available',
  states: {},
  run: () => undefined,
  highlight: null,
});

/** The builder's step tests. */
export function useStepTests(): StepTests {
  return useContext(StepTestsContext);
}

/** What {@link useStepTestRunner} tests with, read when a test starts. */
export interface StepTestInputs {
  definition: Definition;
  /** The trigger sample (`trigger.*`), or the reason it cannot be read (JSON that does not parse). */
  trigger: Record<string, unknown> | string;
  /** Pinned outputs by step id. */
  steps: Record<string, unknown>;
}

/**
 * Runs step tests of the automation `automationId` (undefined: not saved yet) and keeps each
 * card's state; `tested` holds the outputs of the step tests that succeeded (the step's new
 * pinned sample).
 */
export function useStepTestRunner(automationId: string | undefined, inputs: () => StepTestInputs) {
  const [states, setStates] = useState<Record<string, StepTestState>>({});
  const [tested, setTested] = useState<Record<string, unknown>>({});
  const run = useCallback(
    (stepId: string) => {
      if (!automationId) return;
      const { definition, trigger, steps } = inputs();
      const set = (state: StepTestState) => setStates((s) => ({ ...s, [stepId]: state }));
      if (typeof trigger === 'string') {
        set({ running: false, error: `The trigger sample is not valid JSON: ${trigger}` });
        return;
      }
      set({ running: true });
      void (async () => {
        try {
          const result = await automationWrites.testStep(automationId, stepId, { definition, trigger, steps });
          set({ running: false, result });
          if (result.status === 'succeeded') setTested((t) => ({ ...t, [stepId]: result.output }));
        } catch (e) {
          set({ running: false, error: e instanceof ApiError ? e.message : (e as Error).message });
        }
      })();
    },
    [automationId, inputs],
  );
  return { states, tested, run };
}
