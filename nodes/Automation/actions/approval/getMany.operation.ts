import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { returnAllAndLimit, workspaceLocator } from '../../../shared/descriptions';
import { wantedCount } from '../../../shared/paging';
import { collectionParam, handleOf, idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg } from '../../../shared/transport';
import { getAllBefore } from '../run/getMany.operation';

const properties: INodeProperties[] = [
	workspaceLocator(),
	...returnAllAndLimit(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Approver',
				name: 'approver',
				type: 'string',
				default: '',
				placeholder: 'e.g. alice',
				description: 'Only approvals naming this member handle among their approvers',
			},
			{
				displayName: 'Automation ID',
				name: 'automationId',
				type: 'string',
				default: '',
				description: 'Only the approvals of this automation',
			},
		],
	},
];

export const description = showFor('approval', 'getMany', properties);

/**
 * Lists the approvals waiting for a decision across a workspace's automations, newest first
 * (`GET /workspaces/{id}/approvals`, paged with `before` = the last `runId`). Decide one with
 * Run → Approve or Reject (its `automationId` and `runId`).
 */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const workspaceId = idParam(this, 'workspaceId', i, 'Workspace');
	const filters = collectionParam(this, 'filters', i);
	const qs: IDataObject = {};
	const approver = handleOf(filters.approver);
	if (approver) qs.approver = approver;
	if (String(filters.automationId ?? '').trim()) qs.automationId = String(filters.automationId).trim();
	return await getAllBefore.call(this, `/api/v1/workspaces/${seg(workspaceId)}/approvals`, wantedCount.call(this, i), qs, i, 'runId');
}
