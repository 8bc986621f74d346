/**
 * Parent and child runs (docs/automations.md "Sub-runs", the `automation.run` step): starting a
 * child run for a parent step, and waking the parent that waits on a child when that child ends —
 * at once, or, when the parent is still executing here (it has not started waiting yet), as soon
 * as that execution ends. Cancelling the children of a cancelled parent is {@link Cancellation}'s.
 */
import type { SubRunInput, SubRunParams } from '../kinds/flow/sub-run';
import { SUB_RUN_TRIGGER } from '../definition';
import { permanent } from '../errors';
import { FINAL_STATUSES, type RunRecord } from '../ports';
import type { RunContext } from './context';
import type { RunIntake } from './intake';

/** One engine's sub-run bookkeeping. */
export class SubRuns {
  /** Parent runs a child's end should wake but that were executing then: woken once their execution ends. */
  private readonly wakeAgain = new Set<string>();

  constructor(
    private readonly ctx: RunContext,
    private readonly intake: RunIntake,
  ) {}

  /**
   * The child run of an `automation.run` step: a run of another automation of the parent's
   * workspace with the step's input as its trigger variables, one deeper than the parent (the loop
   * guard applies), a test run when the parent is one. De-duplicated on the parent step for good,
   * so a resumed parent finds the child it already started.
   * @throws ActionError NOT_FOUND (unknown or in another workspace), AUTOMATION_DISABLED (permanent).
   */
  async startChild(parent: RunRecord, stepKey: string, params: SubRunParams): Promise<RunRecord> {
    const automation = await this.ctx.store.getAutomation(params.automationId);
    if (!automation || automation.workspaceId !== parent.workspaceId) {
      throw permanent('NOT_FOUND', `automation '${params.automationId}' not found in this workspace`, { field: 'automationId' });
    }
    if (!automation.enabled && !parent.test)
      throw permanent('AUTOMATION_DISABLED', `automation '${params.automationId}' is disabled`, { field: 'automationId' });
    const trigger: RunRecord['trigger'] = { type: SUB_RUN_TRIGGER, variables: params.input, eventId: parent.id };
    if (params.wait) trigger.parent = { runId: parent.id, stepId: stepKey };
    return this.intake.newRun(automation, trigger, {
      depth: parent.depth,
      dedupeKey: `parent:${parent.id}:${stepKey}`,
      since: 0,
      test: parent.test,
    });
  }

  /**
   * Wakes the parent waiting on `child` (a run that just ended, with `trigger.parent`), now or
   * when its execution here ends. Rejects on a store error.
   */
  async wakeParent(child: RunRecord): Promise<void> {
    const parentId = child.trigger.parent!.runId;
    if (this.ctx.runs.isExecuting(parentId)) {
      this.wakeAgain.add(parentId);
      return;
    }
    const parent = await this.ctx.store.getRun(parentId);
    if (parent?.status !== 'waiting' || parent.waitingOn?.kind !== 'automation') return;
    await this.ctx.store.updateRun(parentId, { wakeAt: this.ctx.clock.now() });
    this.ctx.runs.add(parentId);
  }

  /**
   * After a parent's execution here left it waiting on a child: when that child has ended already
   * (seen in another process while the parent was still executing here, before it waited; the
   * other process found it not waiting), the parent is woken again once its execution ends.
   */
  async checkChild(parent: RunRecord): Promise<void> {
    if (parent.waitingOn?.kind !== 'automation') return;
    const step = (await this.ctx.store.getSteps(parent.id)).find((s) => s.stepId === parent.waitingOn!.stepId);
    const childId = (step?.input as SubRunInput | undefined)?.runId;
    if (childId === undefined) return;
    const child = await this.ctx.store.getRun(childId);
    if (child !== undefined && FINAL_STATUSES.has(child.status)) this.wakeAgain.add(parent.id);
  }

  /** After a run's execution here ended: queues it again when a child ended meanwhile. */
  executionEnded(runId: string): void {
    if (!this.wakeAgain.delete(runId)) return;
    void this.ctx.store
      .updateRun(runId, { wakeAt: this.ctx.clock.now() })
      .then(() => this.ctx.runs.add(runId))
      .catch((error: unknown) => this.ctx.logger.warn({ err: error, runId }, 'waking the parent run failed'));
  }
}
