/**
 * "Schedule": cron expressions (croner) or every N minutes. Slots are instants in ms; each slot
 * fires at most once (the store keeps the last fired slot). After downtime only the latest
 * missed slot fires, once.
 */
import { Cron } from 'croner';
import type { ScheduleTrigger } from './schedule';

const MAX_STEPS = 100_000;

/**
 * The latest slot in (`after`, `now`], or undefined when none.
 * `everyMinutes` slots are multiples of N minutes since the Unix epoch.
 */
export function dueSlot(trigger: ScheduleTrigger, after: number, now: number): number | undefined {
  if (trigger.everyMinutes !== undefined) {
    const period = trigger.everyMinutes * 60_000;
    const slot = Math.floor(now / period) * period;
    return slot > after ? slot : undefined;
  }
  const cron = new Cron(trigger.cron!, { paused: true, timezone: trigger.timezone });
  let found: number | undefined;
  let from = new Date(after);
  for (let i = 0; i < MAX_STEPS; i++) {
    const next = cron.nextRun(from);
    if (!next || next.getTime() > now) break;
    found = next.getTime();
    from = next;
  }
  return found;
}

/** The first slot strictly after `after` (for timer planning), or undefined when the schedule has no future slot. */
export function nextSlot(trigger: ScheduleTrigger, after: number): number | undefined {
  if (trigger.everyMinutes !== undefined) {
    const period = trigger.everyMinutes * 60_000;
    return (Math.floor(after / period) + 1) * period;
  }
  const next = new Cron(trigger.cron!, { paused: true, timezone: trigger.timezone }).nextRun(new Date(after));
  return next ? next.getTime() : undefined;
}

/** The variables of a schedule run: the slot's time and the time it actually fired (ISO 8601). */
export function scheduleVariables(slot: number, now: number): Record<string, unknown> {
  return { scheduledAt: new Date(slot).toISOString(), firedAt: new Date(now).toISOString() };
}
