import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { returnAllAndLimit, workspaceLocator } from '../../../shared/descriptions';
import { wantedCount } from '../../../shared/paging';
import { collectionParam, idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg } from '../../../shared/transport';
import { simplifyProperty, simplifyRun } from '../shared';
import { getAllBefore, runStatusFilter } from './getMany.operation';

const properties: INodeProperties[] = [
	workspaceLocator(),
	...returnAllAndLimit(),
	simplifyProperty('ID, automation, status and times, trigger type and variables, without the request headers and raw body'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Automation ID',
				name: 'automationId',
				type: 'string',
				default: '',
				description: 'Only the runs of this automation',
			},
			{
				displayName: 'Created After',
				name: 'createdFrom',
				type: 'dateTime',
				default: '',
				description: 'Only runs created at or after this time',
			},
			{
				displayName: 'Created Before',
				name: 'createdBefore',
				type: 'dateTime',
				default: '',
				description: 'Only runs created before this time',
			},
			runStatusFilter,
		],
	},
];

export const description = showFor('run', 'getManyInWorkspace', properties);

/** An n8n date value (ISO text, Luxon DateTime or Date) as an ISO 8601 instant. */
function isoInstant(value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const text = typeof (value as { toISO?: () => string }).toISO === 'function' ? (value as { toISO: () => string }).toISO() : String(value);
	const ms = Date.parse(text);
	return Number.isNaN(ms) ? text : new Date(ms).toISOString();
}

/** Lists the runs of every automation of a workspace, newest first (`GET /workspaces/{id}/runs`, paged with `before`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const workspaceId = idParam(this, 'workspaceId', i, 'Workspace');
	const filters = collectionParam(this, 'filters', i);
	const simplify = this.getNodeParameter('simplify', i, true) as boolean;
	const qs: IDataObject = {};
	if (filters.status) qs.status = filters.status;
	if (String(filters.automationId ?? '').trim()) qs.automationId = String(filters.automationId).trim();
	const from = isoInstant(filters.createdFrom);
	if (from) qs.createdFrom = from;
	const before = isoInstant(filters.createdBefore);
	if (before) qs.createdBefore = before;
	const runs = await getAllBefore.call(this, `/api/v1/workspaces/${seg(workspaceId)}/runs`, wantedCount.call(this, i), qs, i);
	return simplify ? runs.map(simplifyRun) : runs;
}
