import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requestItems, type TaskspaceContext } from './transport';

/** Largest `limit` the service accepts on its lists (page and cursor lists alike). */
export const MAX_PAGE_SIZE = 500;

/** How many items a "Return All / Limit" pair asks for: `Infinity` for Return All. */
export function wantedCount(this: IExecuteFunctions, i: number): number {
	const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
	if (returnAll) return Infinity;
	return this.getNodeParameter('limit', i, 50) as number;
}

/**
 * Reads a page-based list (`limit`/`page`, pages start at 1) until `wanted` items are in
 * hand or the service returns a short page. Each request asks for at most
 * `MAX_PAGE_SIZE` items, so a limit of 30 is one request of 30, and Return All walks
 * every page of 500.
 */
export async function getAllPages(
	this: TaskspaceContext,
	path: string,
	wanted: number,
	qs: IDataObject = {},
	itemIndex?: number,
): Promise<IDataObject[]> {
	const pageSize = Math.min(MAX_PAGE_SIZE, Number.isFinite(wanted) ? Math.max(1, wanted) : MAX_PAGE_SIZE);
	const results: IDataObject[] = [];
	for (let page = 1; results.length < wanted; page++) {
		const items = await requestItems.call(this, {
			method: 'GET',
			path,
			qs: { ...qs, limit: pageSize, page },
			itemIndex,
		});
		results.push(...items);
		if (items.length < pageSize) break;
	}
	return results.slice(0, wanted);
}

/**
 * Reads a cursor list (`limit` with `after` or `before`, ids of tasks). Forwards from
 * `after` (or the start) it continues after the last id received; with `before` it walks
 * backwards, each time before the first id received, and keeps document order. `filters`
 * are sent with every page.
 */
export async function getAllCursor(
	this: TaskspaceContext,
	path: string,
	wanted: number,
	cursor: { after?: string; before?: string } = {},
	itemIndex?: number,
	filters: IDataObject = {},
): Promise<IDataObject[]> {
	const backwards = Boolean(cursor.before);
	let results: IDataObject[] = [];
	let after = cursor.after;
	let before = cursor.before;
	while (results.length < wanted) {
		const limit = Math.min(MAX_PAGE_SIZE, wanted - results.length);
		const qs: IDataObject = { ...filters, limit };
		if (backwards) qs.before = before;
		else if (after) qs.after = after;
		const items = await requestItems.call(this, { method: 'GET', path, qs, itemIndex });
		if (backwards) {
			results = [...items, ...results];
			before = items.length > 0 ? String(items[0].id) : undefined;
		} else {
			results.push(...items);
			after = items.length > 0 ? String(items[items.length - 1].id) : undefined;
		}
		if (items.length < limit) break;
	}
	return backwards ? results.slice(Math.max(0, results.length - wanted)) : results.slice(0, wanted);
}
