/**
 * Triggers on another automation's run of the workspace (never on the automation's own runs;
 * `automationId` limits them to one automation):
 * - `automation.failed`: a run failed (an error handler, like n8n's Error Trigger);
 * - `approval.requested`: a run waits for an approval.
 */
import { Type } from '@sinclair/typebox';
import type { TriggerBase } from '../../../definition/types';
import { defineTrigger } from '../../kind';
import { Ref } from '../../parts';
import { EXAMPLE_IDS, EXAMPLE_TIME } from '../../examples';

/** The variables every run event's example has. */
const RUN_EXAMPLE = {
  automationId: EXAMPLE_IDS.automationId,
  automationName: 'Publish the weekly report',
  runId: EXAMPLE_IDS.runId,
  runLink: `https://taskspace.example/automations/${EXAMPLE_IDS.automationId}/runs/${EXAMPLE_IDS.runId}`,
};

/** The failure-alert trigger: another automation's run failed (docs "Failure alerts"). */
export const AUTOMATION_FAILED = 'automation.failed' as const;
/** Another automation's run waits for an approval (docs "Approvals that reach people"). */
export const APPROVAL_REQUESTED = 'approval.requested' as const;

const RUN_EVENT = ['automationId', 'automationName', 'runId', 'runLink'] as const;
const run = {
  category: 'Runs',
  source: 'run-event',
  sideEffects: false,
  parameters: Type.Object({
    automationId: Type.Optional(
      Ref('automation', {
        title: 'Automation',
        description: 'Absent: any other automation of the workspace.',
        minLength: 1,
        maxLength: 2000,
      }),
    ),
  }),
  match(event: { payload: Record<string, unknown> }, trigger: Record<string, unknown>) {
    const only = trigger.automationId;
    return only === undefined || only === event.payload.automationId ? { ...event.payload } : undefined;
  },
} as const;

/** The run-event trigger kinds. */
export const RUN_EVENT_KINDS = [
  defineTrigger({
    ...run,
    type: AUTOMATION_FAILED,
    title: 'Automation failed',
    summary: "When another automation's run fails.",
    icon: 'triangle-alert',
    variables: { names: [...RUN_EVENT, 'version', 'error', 'failedAt'], open: false },
    example: {
      ...RUN_EXAMPLE,
      version: 3,
      error: { code: 'ACTION_FAILED', message: 'HTTP 502 from https://api.example.com/reports', stepId: 'publish' },
      failedAt: EXAMPLE_TIME,
    },
  }),
  defineTrigger({
    ...run,
    type: APPROVAL_REQUESTED,
    title: 'Approval requested',
    summary: "When another automation's run waits for an approval.",
    icon: 'user-check',
    variables: { names: [...RUN_EVENT, 'stepId', 'message', 'approvers', 'decisionLink', 'timeoutAt', 'test'], open: false },
    example: {
      ...RUN_EXAMPLE,
      stepId: 'approve',
      message: 'Publish the weekly report?',
      approvers: [EXAMPLE_IDS.handle],
      decisionLink: 'https://taskspace.example/decide?token=example',
      test: false,
    },
  }),
] as const;

/** A trigger fired by another automation's run. */
export type RunEventTriggerType = typeof AUTOMATION_FAILED | typeof APPROVAL_REQUESTED;

/**
 * Fires on another automation's run of the workspace (`automationId` limits it to one
 * automation; never on the automation's own runs): `automation.failed` (a run failed) or
 * `approval.requested` (a run waits for an approval).
 */
export interface AutomationFailedTrigger extends TriggerBase {
  type: RunEventTriggerType;
  automationId?: string;
}

declare module '../../../definition/types' {
  /** The run event triggers (see {@link TriggerTypes}). */
  interface TriggerTypes {
    runEvents: AutomationFailedTrigger;
  }
}
