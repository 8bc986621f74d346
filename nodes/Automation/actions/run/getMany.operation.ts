import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { returnAllAndLimit } from '../../../shared/descriptions';
import { wantedCount } from '../../../shared/paging';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItems, seg } from '../../../shared/transport';
import { automationIdProperty, simplifyProperty, simplifyRun } from '../shared';

/** Largest page of the runs lists. */
export const RUNS_PAGE = 100;

/** The run statuses, for filters. */
export const runStatusFilter: INodeProperties = {
	displayName: 'Status',
	name: 'status',
	type: 'options',
	options: [
		{ name: 'Cancelled', value: 'cancelled' },
		{ name: 'Completed', value: 'completed' },
		{ name: 'Failed', value: 'failed' },
		{ name: 'Queued', value: 'queued' },
		{ name: 'Rejected', value: 'rejected' },
		{ name: 'Running', value: 'running' },
		{ name: 'Skipped', value: 'skipped' },
		{ name: 'Waiting', value: 'waiting' },
	],
	default: 'waiting',
	description: 'Only runs in this status (Waiting includes runs waiting for an approval)',
};

const properties: INodeProperties[] = [
	automationIdProperty,
	...returnAllAndLimit(),
	simplifyProperty('ID, status and times, trigger type and variables, without the request headers and raw body'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [runStatusFilter],
	},
];

export const description = showFor('run', 'getMany', properties);

/**
 * Reads a newest-first list paged with a `before` cursor (the last `cursorKey` of the previous
 * page), pages of at most 100, until `wanted` items are in hand or a page comes back short.
 */
export async function getAllBefore(
	this: IExecuteFunctions,
	path: string,
	wanted: number,
	filters: IDataObject,
	i: number,
	cursorKey = 'id',
): Promise<IDataObject[]> {
	const items: IDataObject[] = [];
	let before: string | undefined;
	while (items.length < wanted) {
		const limit = Math.min(RUNS_PAGE, wanted - items.length);
		const qs: IDataObject = { ...filters, limit };
		if (before) qs.before = before;
		const page = await requestItems.call(this, { method: 'GET', path, qs, itemIndex: i });
		items.push(...page);
		if (page.length < limit) break;
		before = String(page[page.length - 1][cursorKey]);
	}
	return items;
}

/** Lists an automation's runs, newest first (`GET /automations/{id}/runs`, paged with `before`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const automationId = idParam(this, 'automationId', i, 'Automation');
	const filters = this.getNodeParameter('filters', i, {}) as { status?: string };
	const simplify = this.getNodeParameter('simplify', i, true) as boolean;
	const qs: IDataObject = {};
	if (filters.status) qs.status = filters.status;
	const runs = await getAllBefore.call(this, `/api/v1/automations/${seg(automationId)}/runs`, wantedCount.call(this, i), qs, i);
	return simplify ? runs.map(simplifyRun) : runs;
}
