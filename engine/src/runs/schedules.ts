/**
 * The work of one tick (README "Automations", "Schedules"; the {@link Ticker} calls it): waiting
 * runs whose delay, retry or approval timeout has come are claimed and queued, and each enabled
 * schedule whose slot has come fires once per slot — also across restarts and changes of the
 * lead, as the store keeps the last fired slot of each automation. Slots missed (the process
 * down, a leader stalled until another took over) are caught up: each missed slot at most
 * {@link CATCH_UP_WINDOW_MS} old fires once, late, oldest first (at most {@link CATCH_UP_MAX_SLOTS},
 * the latest ones); of older missed slots only the latest fires, when none is that recent.
 */
import type { ScheduleTrigger } from '../kinds/time/schedule/schedule';
import { dueSlot, nextSlot, scheduleVariables } from '../kinds/time/schedule/slots';
import type { RunContext } from './context';
import type { RunIntake } from './intake';
import type { Leases } from './leases';

/** How old a missed schedule slot may be and still fire (catch-up), in ms: 5 minutes. */
export const CATCH_UP_WINDOW_MS = 5 * 60_000;

/** Most missed slots one schedule fires at one tick (the latest of those within {@link CATCH_UP_WINDOW_MS}). */
export const CATCH_UP_MAX_SLOTS = 60;

/**
 * The slots of `trigger` to fire at `now` after the last fired slot `last` (all ms since the
 * epoch), oldest first: every slot in (`last`, `now`] at most {@link CATCH_UP_WINDOW_MS} old (the
 * latest {@link CATCH_UP_MAX_SLOTS} of them), or, when none is that recent, the latest slot in
 * (`last`, `now`] alone; empty when no slot has come.
 */
export function slotsToFire(trigger: ScheduleTrigger, last: number, now: number): number[] {
  const latest = dueSlot(trigger, last, now);
  if (latest === undefined) return [];
  const slots: number[] = [];
  // nextSlot gives the first slot strictly after its argument.
  for (
    let at = nextSlot(trigger, Math.max(last, now - CATCH_UP_WINDOW_MS - 1));
    at !== undefined && at <= now;
    at = nextSlot(trigger, at)
  ) {
    slots.push(at);
    if (slots.length > CATCH_UP_MAX_SLOTS) slots.shift();
  }
  return slots.length > 0 ? slots : [latest];
}

/** What {@link dueWork} needs besides the context. */
export interface DueDeps {
  leases: Leases;
  intake: RunIntake;
  /** Whether this engine fires schedule slots (`EngineOptions.firesSchedules`). */
  firesSchedules: () => boolean;
}

/**
 * Does what is due at `now` (ms since the epoch): due runs claimed and queued (on an executing
 * engine), due schedule slots fired, missed ones caught up ({@link slotsToFire}; a slot the
 * trigger's filter refuses passes without a run). Each slot is recorded as fired once its run is
 * stored, and the next one fires only while this engine still fires schedules (a leader that lost
 * the lead stops between two slots).
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
      let last = (await store.getScheduleSlot(automation.id)) ?? automation.updatedAt;
      for (const slot of slotsToFire(trigger, last, now)) {
        if (!deps.firesSchedules()) return next;
        const variables = scheduleVariables(slot, now);
        if (deps.intake.passesFilter(automation, variables, `slot:${slot}`)) {
          await deps.intake.newRun(automation, { type: 'schedule', variables }, { depth: 0, dedupeKey: `slot:${slot}` });
        }
        await store.setScheduleSlot(automation.id, slot);
        last = slot;
      }
      const upcoming = nextSlot(trigger, last);
      if (upcoming !== undefined && (next === undefined || upcoming < next)) next = upcoming;
    } catch (error) {
      ctx.logger.warn({ err: error, automationId: automation.id }, 'schedule failed');
    }
  }
  return next;
}
