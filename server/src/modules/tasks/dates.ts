import type { Query, Sql } from '../../platform/db/query';
import type { Actor } from '../../auth/tokens';
import type { ProjectAccess } from '../../auth/access';
import { badRequest, ServiceError } from '../../errors';
import type { Services } from '../../services';
import { requireTask, toTask, type Task } from './records';
import { raiseTaskUpdated, taskSnapshot } from './change-events';

/**
 * Task dates (spec section 4.1, `.../tasks/{taskId}/date`): an optional start and an optional
 * end, each a calendar date with an optional time of day and an IANA time zone. The task's
 * `due_at` (ms since the epoch) is kept in step for the `task.due` scheduler (README "Tasks").
 */

/** `YYYY-MM-DD`. */
export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
/** `HH:MM` or `HH:MM:SS`, 24-hour clock. */
export const TIME_PATTERN = '^([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d)?$';
/** IANA zone names such as `Europe/Paris`, `America/Argentina/Buenos_Aires`, `UTC`, `Etc/GMT+5`. */
export const TIMEZONE_PATTERN = '^[A-Za-z][A-Za-z0-9_+\\-]*(/[A-Za-z0-9_+\\-]+)*$';
/** Longest accepted time zone name, in characters. */
export const MAX_TIMEZONE_LENGTH = 64;
/** The zone of a date side given without one. */
export const DEFAULT_TIMEZONE = 'UTC';

const dateRe = new RegExp(DATE_PATTERN);
const timeRe = new RegExp(TIME_PATTERN);
const zoneRe = new RegExp(TIMEZONE_PATTERN);

/** One side of a task date as stored and returned. `time` is absent for an all-day date. */
export interface DatePoint {
  /** `YYYY-MM-DD`, a real calendar date. */
  date: string;
  /** `HH:MM` or `HH:MM:SS` (24-hour), absent for all day. */
  time?: string;
  /** IANA time zone name (canonical spelling). */
  timezone: string;
}

/** One side of a task date as written; `time` and `timezone` may be absent or null. */
export interface DatePointInput {
  date: string;
  time?: string | null;
  timezone?: string | null;
}

/** A task's date: either side may be missing (null). */
export interface TaskDate {
  start: DatePoint | null;
  end: DatePoint | null;
}

/** The body of PUT date: at least one side; an absent or null side is cleared. */
export interface TaskDateInput {
  start?: DatePointInput | null;
  end?: DatePointInput | null;
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** True when `date` is `YYYY-MM-DD` and names a real day (leap years included). */
export function isCalendarDate(date: string): boolean {
  if (!dateRe.test(date)) return false;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
  return d <= days;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A formatter printing wall-clock fields in `timeZone`; throws RangeError for an unknown zone. */
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The canonical name of an IANA time zone, or undefined when Intl does not know it. */
export function canonicalTimeZone(name: string): string | undefined {
  if (name.length > MAX_TIMEZONE_LENGTH || !zoneRe.test(name)) return undefined;
  try {
    return formatter(name).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** ms since the epoch of a wall-clock time read as UTC. */
function wallAsUtc(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const t = new Date(0);
  t.setUTCFullYear(year, month - 1, day);
  t.setUTCHours(hour, minute, second, 0);
  return t.getTime();
}

/** The offset of `timeZone` from UTC at instant `ms`, in ms (east positive). */
function offsetAt(ms: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wall = wallAsUtc(parts.year!, parts.month!, parts.day!, parts.hour! % 24, parts.minute!, parts.second!);
  return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant (ms since the epoch) of wall-clock `date` at `time` (default 00:00) in `timeZone`.
 * For a wall time skipped by a DST change the offset before the change is used.
 */
export function zonedTimeToEpoch(date: string, time: string | undefined, timeZone: string): number {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h = 0, mi = 0, s = 0] = (time ?? '00:00').split(':').map(Number);
  const wall = wallAsUtc(y, mo, d, h, mi, s);
  if (timeZone === 'UTC') return wall;
  const first = wall - offsetAt(wall, timeZone);
  return wall - offsetAt(first, timeZone);
}

/** Checks and normalizes one side. @throws ServiceError 400 naming `side.date`, `side.time` or `side.timezone`. */
function checkPoint(side: 'start' | 'end', input: DatePointInput): DatePoint {
  if (typeof input !== 'object') throw badRequest(side, 'invalid_type', `${side} must be an object {date, time?, timezone?}`);
  if (typeof input.date !== 'string' || !isCalendarDate(input.date)) {
    throw badRequest(`${side}.date`, 'invalid_format', `${side}.date must be a real calendar date YYYY-MM-DD`);
  }
  const point: DatePoint = { date: input.date, timezone: DEFAULT_TIMEZONE };
  if (input.time !== undefined && input.time !== null) {
    if (typeof input.time !== 'string' || !timeRe.test(input.time)) {
      throw badRequest(`${side}.time`, 'invalid_format', `${side}.time must be HH:MM or HH:MM:SS (24-hour clock)`);
    }
    point.time = input.time;
  }
  if (input.timezone !== undefined && input.timezone !== null) {
    const zone = typeof input.timezone === 'string' ? canonicalTimeZone(input.timezone) : undefined;
    if (!zone)
      throw badRequest(`${side}.timezone`, 'invalid_value', `${side}.timezone '${String(input.timezone)}' is not a known IANA time zone`);
    point.timezone = zone;
  }
  return point;
}

/**
 * True when `end` comes before `start`: compared as instants when both have a time, else by
 * calendar date.
 */
function endsBeforeStart(start: DatePoint, end: DatePoint): boolean {
  if (start.time !== undefined && end.time !== undefined) {
    return zonedTimeToEpoch(end.date, end.time, end.timezone) < zonedTimeToEpoch(start.date, start.time, start.timezone);
  }
  return end.date < start.date;
}

/** `due_at` for a date: the end (else the start) at its time, or 00:00 for all day, in its zone. */
export function dueAt(date: TaskDate): number | null {
  const point = date.end ?? date.start;
  return point ? zonedTimeToEpoch(point.date, point.time, point.timezone) : null;
}

interface DateRow {
  startDate: string | null;
  startTime: string | null;
  startTz: string | null;
  endDate: string | null;
  endTime: string | null;
  endTz: string | null;
}

/** A stored side of a date as the API shows it, or null when the side is empty. */
export function pointOf(date: string | null, time: string | null, timezone: string | null): DatePoint | null {
  if (date === null) return null;
  const point: DatePoint = { date, timezone: timezone ?? DEFAULT_TIMEZONE };
  if (time !== null) point.time = time;
  return point;
}

/**
 * A task's date (Viewer).
 * @throws ServiceError 404 for an unknown project or task, or when the task has no date.
 */
export function* getTaskDate(svc: Services, actor: Actor, projectId: string, taskId: string, q: Sql = svc.store.sql): Query<TaskDate> {
  yield* requireTask(q, actor, projectId, taskId, 'Viewer');
  const row = (yield* q.get<DateRow>(
    `SELECT start_date AS "startDate", start_time AS "startTime", start_tz AS "startTz",
            end_date AS "endDate", end_time AS "endTime", end_tz AS "endTz" FROM tasks WHERE id = ?`,
    [taskId],
  ))!;
  if (row.startDate === null && row.endDate === null) throw new ServiceError(404, 'NOT_FOUND', `task '${taskId}' has no date`);
  return { start: pointOf(row.startDate, row.startTime, row.startTz), end: pointOf(row.endDate, row.endTime, row.endTz) };
}

/** Writes a task's date (and due time) and raises `task.updated` when a side changed. */
function* writeDate(q: Sql, svc: Services, actor: Actor, project: ProjectAccess, taskId: string, date: TaskDate): Query<void> {
  const before = yield* taskSnapshot(q, taskId);
  const now = svc.clock.now();
  const { start, end } = date;
  yield* q.run(
    `UPDATE tasks SET start_date = ?, start_time = ?, start_tz = ?, end_date = ?, end_time = ?, end_tz = ?, due_at = ?, updated_at = ?
      WHERE id = ?`,
    [
      start?.date ?? null,
      start?.time ?? null,
      start ? start.timezone : null,
      end?.date ?? null,
      end?.time ?? null,
      end ? end.timezone : null,
      dueAt(date),
      now,
      taskId,
    ],
  );
  yield* raiseTaskUpdated(q, svc, actor, project, taskId, before, now);
}

/**
 * Sets a task's date (Participant). The date becomes exactly what is given: a side that is
 * absent or null is cleared. A side without `timezone` is in UTC; without `time` it is all day.
 * The input is checked when the function is called, before the operation runs. Raises
 * `task.updated` (changed `startDate`/`endDate`) when a side changed.
 * @returns the task.
 * @throws ServiceError 400 when neither side is given (field `start`, reason `required`), for a
 *   malformed side, or when the end is before the start (field `end`, reason `before_start`);
 *   404, 403, 409 as for every task write.
 */
export function setTaskDate(
  svc: Services,
  actor: Actor,
  projectId: string,
  taskId: string,
  input: TaskDateInput,
  q: Sql = svc.store.sql,
): Query<Task> {
  const start = input.start ? checkPoint('start', input.start) : null;
  const end = input.end ? checkPoint('end', input.end) : null;
  if (!start && !end) throw badRequest('start', 'required', 'a date needs start, end or both');
  if (start && end && endsBeforeStart(start, end)) throw badRequest('end', 'before_start', 'end must not be before start');
  return q.transaction(function* (tx) {
    const { project, task } = yield* requireTask(tx, actor, projectId, taskId, 'Participant', { mutation: true, action: 'setting a date' });
    yield* writeDate(tx, svc, actor, project, task.id, { start, end });
    return toTask(task);
  });
}

/**
 * Removes a task's date and due time (Participant). Idempotent. Raises `task.updated` when
 * the task had a date.
 * @returns the task.
 * @throws ServiceError 404, 403, 409 as for every task write.
 */
export function clearTaskDate(svc: Services, actor: Actor, projectId: string, taskId: string, q: Sql = svc.store.sql): Query<Task> {
  return q.transaction(function* (tx) {
    const { project, task } = yield* requireTask(tx, actor, projectId, taskId, 'Participant', {
      mutation: true,
      action: 'removing a date',
    });
    yield* writeDate(tx, svc, actor, project, task.id, { start: null, end: null });
    return toTask(task);
  });
}
