import { useCallback, useMemo, useRef, useState } from 'react';
import { useRun, useRuns } from '../queries';
import type { Samples } from './data';
import type { Kinds } from './kinds';
import type { Definition } from './model';
import { exampleGap, runSample, stepSamples, triggerSample, triggerVariables } from './samples';
import { templateSample, useSampleContext } from './sampleContext';
import { useStepTestRunner, type StepTestInputs, type StepTests } from './step-tests';

/** The latest run of an automation with its steps (the data picker's sample values). */
function useLastRun(automationId: string | undefined) {
  const runs = useRuns(automationId ?? '', 1);
  const latest = automationId ? runs.data?.[0] : undefined;
  const run = useRun(automationId ?? '', latest?.id ?? '');
  return latest ? run.data : undefined;
}

/** Where the builder was opened from: a run's step (`?step=<id>&run=<runId>`), when it was. */
export interface LinkedRun {
  /** The id of the step to highlight, or `null`. */
  step: string | null;
  /** The id of the run whose data are the samples, or `null`. */
  runId: string | null;
}

/**
 * The builder's test data: the trigger's sample (derived from the draft and the latest or linked
 * run, or the JSON typed in the test panel), the data picker's sample values, and the step tests'
 * runner. `parsedTrigger` is the typed sample as an object, or the reason it is not one.
 */
export function useTestData(
  automationId: string | undefined,
  workspaceId: string | undefined,
  definition: Definition | null,
  kinds: Kinds | null,
  linked: LinkedRun,
) {
  const lastRun = useLastRun(automationId);
  // Opened from a run's failed step: that card highlighted, that run's data as samples.
  const linkedStep = linked.step;
  const linkedRun = useRun(automationId ?? '', linked.runId ?? '').data;
  const [triggerText, setTriggerText] = useState<string | null>(null);
  const draftTrigger = definition?.trigger;
  const context = useSampleContext(workspaceId, draftTrigger);
  const declared = useMemo(() => templateSample(automationId), [automationId]);
  const derivedTrigger = useMemo(
    () =>
      draftTrigger && kinds ? triggerSample(draftTrigger, kinds.trigger(draftTrigger.type), linkedRun ?? lastRun, context, declared) : {},
    [draftTrigger, kinds, linkedRun, lastRun, context, declared],
  );
  // What the sample cannot stand for yet (a task the project does not have), said before a test run.
  const kind = draftTrigger && kinds ? kinds.trigger(draftTrigger.type) : undefined;
  const sampleRun = draftTrigger && runSample(draftTrigger, linkedRun ?? lastRun) ? (linkedRun ?? lastRun) : undefined;
  const sampleGap =
    triggerText === null && !declared && !sampleRun && kind?.example
      ? exampleGap(kind.example as Record<string, unknown>, context)
      : undefined;
  const parsedTrigger = useMemo<Record<string, unknown> | string>(() => {
    if (triggerText === null) return derivedTrigger;
    try {
      const value = JSON.parse(triggerText) as unknown;
      return value && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : 'the sample is a JSON object';
    } catch (e) {
      return (e as Error).message;
    }
  }, [triggerText, derivedTrigger]);
  const testInputs = useRef<StepTestInputs | null>(null);
  const readInputs = useCallback(() => testInputs.current!, []);
  const runner = useStepTestRunner(automationId, readInputs);
  const samples = useMemo<Samples>(
    () => ({
      trigger: triggerVariables(
        definition?.trigger.type ?? '',
        typeof parsedTrigger === 'string' ? derivedTrigger : parsedTrigger,
        linkedRun ?? lastRun,
      ),
      steps: stepSamples([lastRun, linkedRun], runner.tested),
    }),
    [definition?.trigger.type, parsedTrigger, derivedTrigger, lastRun, linkedRun, runner.tested],
  );
  if (definition) testInputs.current = { definition, trigger: parsedTrigger, steps: samples.steps };
  const stepTests = useMemo<StepTests>(
    () => ({
      unavailable: automationId ? null : 'Save the automation to test its steps.',
      states: runner.states,
      run: runner.run,
      highlight: linkedStep,
    }),
    [automationId, runner.states, runner.run, linkedStep],
  );
  // The example becomes the automation's own once its project, task and person are read.
  const samplePending = triggerText === null && !sampleRun && !declared && context.loading === true;
  return {
    lastRun,
    linkedRun,
    linkedStep,
    triggerText,
    setTriggerText,
    derivedTrigger,
    sampleRun,
    sampleGap,
    samplePending,
    samples,
    stepTests,
  };
}
