import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { returnAllAndLimit } from '../../../shared/descriptions';
import { wantedCount } from '../../../shared/paging';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItems, seg } from '../../../shared/transport';
import { automationIdProperty } from '../shared';

/** Largest page of the runs list. */
const RUNS_PAGE = 100;

const properties: INodeProperties[] = [
	automationIdProperty,
	...returnAllAndLimit(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
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
			},
		],
	},
];

export const description = showFor('run', 'getMany', properties);

/** Lists an automation's runs, newest first (`GET /automations/{id}/runs`, paged with `before`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const automationId = idParam(this, 'automationId', i, 'Automation');
	const filters = this.getNodeParameter('filters', i, {}) as { status?: string };
	const wanted = wantedCount.call(this, i);
	const runs: IDataObject[] = [];
	let before: string | undefined;
	while (runs.length < wanted) {
		const limit = Math.min(RUNS_PAGE, wanted - runs.length);
		const qs: IDataObject = { limit };
		if (filters.status) qs.status = filters.status;
		if (before) qs.before = before;
		const page = await requestItems.call(this, { method: 'GET', path: `/api/v1/automations/${seg(automationId)}/runs`, qs, itemIndex: i });
		runs.push(...page);
		if (page.length < limit) break;
		before = String(page[page.length - 1].id);
	}
	return runs;
}
