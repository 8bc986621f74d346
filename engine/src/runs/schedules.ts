/**
 * The work of one tick (README "Automations", "Schedules"; the {@link Ticker} calls it): waiting
 * runs whose delay, retry or approval timeout has come are claimed and queued, and each enabled
 * schedule whose slot has come fires once per slot — also across restarts, as the store keeps
 * the last fired slot of each automation.
 */
import type { ScheduleTrigger } from '../definition';
import { dueSlot, nextSlot, scheduleVariables } from '../triggers';
import type { RunContext } from './context';
import type { RunIntake } from './intake';
import type { Leases } from './leases';

/** What {@link dueWork} needs besides the context. */
export interface DueDeps {
  leases: Leases;
  intake: RunIntake;
  /** Whether this engine fires schedule slots (`EngineOptions.firesSchedules`). */
  firesSchedules: () => boolean;
}

/**
 * Does what is due at `now` (ms since the epoch): due runs claimed and queued (on an executing
 * engine), due schedule slots fired (a slot the trigger's filter refuses passes without a run).
 * Resolves to when something is next due (ms since the epoch), if known. A schedule that fails is
 * logged and skipped; a store error of the due runs rejects.
 */
export async function dueWork(ctx: RunContext, deps: DueDeps, now: number): Promise<number | undefined> {
  const { store } = ctx;
  if (ctx.executes) await deps.leases.claim((lease, limit) => store.claimDueRuns(now, lease, limit));
  let next = await store.nextWakeAt(now);
  if (!deps.firesSchedules()) return next;
  for (const automation of await store.listEnabledAutomations('schedule')) {
    const trigger = automation.definition.trigger as ScheduleTrigger;
    try {
      const last = (await store.getScheduleSlot(automation.id)) ?? automation.updatedAt;
      const slot = dueSlot(trigger, last, now);
      if (slot !== undefined) {
        const variables = scheduleVariables(slot, now);
        if (deps.intake.passesFilter(automation, variables, `slot:${slot}`)) {
          await deps.intake.newRun(automation, { type: 'schedule', variables }, { depth: 0, dedupeKey: `slot:${slot}` });
        }
        await store.setScheduleSlot(automation.id, slot);
      }
      const upcoming = nextSlot(trigger, slot ?? last);
      if (upcoming !== undefined && (next === undefined || upcoming < next)) next = upcoming;
    } catch (error) {
      ctx.logger.warn({ err: error, automationId: automation.id }, 'schedule failed');
    }
  }
  return next;
}
