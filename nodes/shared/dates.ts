import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** One end of a task date as the service takes it (`{date:'YYYY-MM-DD', time?:'HH:MM', timezone?}`). */
export interface ServiceDatePoint extends IDataObject {
	date: string;
	time?: string;
	timezone?: string;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A wall-clock date-time without offset, as n8n's date picker produces it. */
const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/;
/** A date-time with `Z` or a numeric offset: an instant. */
const ZONED_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** True when `zone` is an IANA time zone this runtime knows. */
export function isValidTimeZone(zone: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: zone });
		return true;
	} catch {
		return false;
	}
}

/** Wall-clock date and time of `instant` (ms) in `zone`. */
export function wallClock(instant: number, zone: string): { date: string; time: string } {
	const parts = new Intl.DateTimeFormat('en-CA', {
		timeZone: zone,
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		hourCycle: 'h23',
	}).formatToParts(new Date(instant));
	const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
	return { date: `${get('year')}-${get('month')}-${get('day')}`, time: `${get('hour')}:${get('minute')}` };
}

/** Normalises n8n date values (strings, Luxon `DateTime`, JS `Date`) to a string. */
function asText(value: unknown): string {
	if (value instanceof Date) return value.toISOString();
	if (value && typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') {
		return String((value as { toISO: () => string }).toISO());
	}
	return String(value ?? '').trim();
}

/**
 * Converts an n8n date value into the service's date point.
 *
 * - `YYYY-MM-DD`: an all-day date (no time, no zone).
 * - A wall-clock date-time without offset (the date picker's value): read in `zone`.
 * - An instant (`Z` or an offset, a Luxon `DateTime`, a `Date`): converted to its wall
 *   clock in `zone`.
 *
 * `zone` is the workflow's timezone unless the user picked one; `allDay` drops the time.
 * Throws a `NodeOperationError` for anything else.
 */
export function toServiceDate(
	ctx: IExecuteFunctions,
	i: number,
	label: string,
	value: unknown,
	zone: string,
	allDay = false,
): ServiceDatePoint {
	const text = asText(value);
	const node = ctx.getNode();
	if (!isValidTimeZone(zone)) {
		throw new NodeOperationError(node, `"${zone}" is not a known time zone`, { itemIndex: i });
	}
	let date: string;
	let time: string | undefined;
	const local = LOCAL_DATE_TIME.exec(text);
	if (DATE_ONLY.test(text)) {
		date = text;
	} else if (local) {
		date = local[1];
		time = `${local[2]}:${local[3]}`;
	} else if (ZONED_DATE_TIME.test(text)) {
		const instant = Date.parse(text);
		if (Number.isNaN(instant)) {
			throw new NodeOperationError(node, `${label} "${text}" is not a valid date`, { itemIndex: i });
		}
		({ date, time } = wallClock(instant, zone));
	} else {
		throw new NodeOperationError(node, `${label} "${text}" is not a date`, {
			itemIndex: i,
			description: 'Use YYYY-MM-DD, YYYY-MM-DDTHH:MM, an ISO 8601 timestamp or a date expression such as {{ $now }}',
		});
	}
	const [year, month, day] = date.split('-').map(Number);
	const check = new Date(Date.UTC(year, month - 1, day));
	if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
		throw new NodeOperationError(node, `${label} "${text}" is not a calendar date`, { itemIndex: i });
	}
	if (allDay || time === undefined) return { date };
	return { date, time, timezone: zone };
}

/** The UTC instant (ms) of wall-clock `date` `time` in `zone` (two rounds settle DST edges). */
function instantOf(date: string, time: string, zone: string): number {
	const [year, month, day] = date.split('-').map(Number);
	const [hour, minute] = time.split(':').map(Number);
	const wall = Date.UTC(year, month - 1, day, hour, minute);
	let instant = wall;
	for (let round = 0; round < 2; round++) {
		const seen = wallClock(instant, zone);
		const [y, mo, d] = seen.date.split('-').map(Number);
		const [h, mi] = seen.time.split(':').map(Number);
		instant += wall - Date.UTC(y, mo - 1, d, h, mi);
	}
	return instant;
}

/**
 * Converts an n8n date value into an ISO 8601 instant for the service's filters: an instant
 * stays itself; a date (its midnight) or a wall-clock date-time is read in `zone` (the
 * workflow's timezone). Throws a `NodeOperationError` for anything else.
 */
export function toInstant(ctx: IExecuteFunctions, i: number, label: string, value: unknown, zone: string): string {
	const text = asText(value);
	if (ZONED_DATE_TIME.test(text) && !Number.isNaN(Date.parse(text))) return new Date(Date.parse(text)).toISOString();
	const point = toServiceDate(ctx, i, label, text, zone);
	return new Date(instantOf(point.date, point.time ?? '00:00', zone)).toISOString();
}
