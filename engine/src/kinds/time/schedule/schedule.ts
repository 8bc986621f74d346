/**
 * "Schedule": exactly one of `cron` (5 or 6 fields, croner syntax, in `timezone`) or
 * `everyMinutes` (slots aligned to the Unix epoch). Each slot fires at most once, also across
 * restarts; after downtime only the latest missed slot fires. The slot logic is
 * `slots.ts`; a `filter` is evaluated when the slot fires.
 */
import { Type } from '@sinclair/typebox';
import { Cron } from 'croner';
import type { DefinitionProblem } from '../../../definition/validate';
import type { TriggerBase } from '../../../definition/types';
import { defineTrigger } from '../../kind';
import { EXAMPLE_TIME } from '../../examples';

/** `schedule`. */
export const SCHEDULE_KIND = defineTrigger({
  type: 'schedule',
  title: 'On a schedule',
  summary: 'At times given by a cron expression, or every N minutes.',
  category: 'Time',
  icon: 'clock',
  source: 'schedule',
  parameters: Type.Object({
    cron: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, title: 'Cron expression', 'x-editor': 'cron', examples: ['0 9 * * 1-5'] }),
    ),
    everyMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 525_600, title: 'Every (minutes)' })),
    timezone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        title: 'Time zone',
        default: 'UTC',
        'x-editor': 'timezone',
        examples: ['Europe/Berlin'],
      }),
    ),
  }),
  constraints: { oneOf: [{ required: ['cron'] }, { required: ['everyMinutes'] }] },
  variables: { names: ['scheduledAt', 'firedAt'], open: false },
  example: { scheduledAt: EXAMPLE_TIME, firedAt: EXAMPLE_TIME },
  output: Type.Object(
    { scheduledAt: Type.String({ format: 'date-time' }), firedAt: Type.String({ format: 'date-time' }) },
    { title: 'Trigger variables' },
  ),
  check(trigger) {
    const problems: DefinitionProblem[] = [];
    const { cron, timezone } = trigger as { cron?: string; timezone?: string };
    if (cron !== undefined) {
      try {
        new Cron(cron, { paused: true, timezone });
      } catch (error) {
        problems.push({ path: 'trigger.cron', reason: 'invalid_format', message: `trigger.cron: ${(error as Error).message}` });
      }
    }
    if (timezone !== undefined) {
      try {
        new Intl.DateTimeFormat('en', { timeZone: timezone });
      } catch {
        problems.push({ path: 'trigger.timezone', reason: 'invalid_value', message: `trigger.timezone: unknown time zone '${timezone}'` });
      }
    }
    return problems;
  },
});

/**
 * Fires on a time schedule: exactly one of `cron` (5 or 6 fields, croner syntax) or
 * `everyMinutes` (slots aligned to the Unix epoch). Each slot fires at most once, also
 * across restarts; after downtime only the latest missed slot fires.
 */
export interface ScheduleTrigger extends TriggerBase {
  type: 'schedule';
  cron?: string;
  everyMinutes?: number;
  /** IANA time zone for `cron` (default UTC). */
  timezone?: string;
}

declare module '../../../definition/types' {
  /** The schedule trigger (see {@link TriggerTypes}). */
  interface TriggerTypes {
    schedule: ScheduleTrigger;
  }
}
