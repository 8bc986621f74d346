import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { runLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { requestItem, seg } from '../../../shared/transport';
import { automationIdProperty } from '../shared';

/** The parameters of Approve and Reject. */
export const decisionProperties: INodeProperties[] = [
	automationIdProperty,
	runLocator({ description: 'A run waiting for an approval (the list shows the runs of the automation, newest first)' }),
	{
		displayName: 'Comment',
		name: 'comment',
		type: 'string',
		default: '',
		description: 'Optional comment; later steps of the run read it as the approval step\'s comment',
	},
];

/** Decides the approval a run waits on (`POST /automations/{id}/runs/{runId}/approve|reject`). */
export async function decide(this: IExecuteFunctions, i: number, decision: 'approve' | 'reject'): Promise<IDataObject> {
	const automationId = idParam(this, 'automationId', i, 'Automation');
	const runId = idParam(this, 'runId', i, 'Run');
	const comment = this.getNodeParameter('comment', i, '') as string;
	return await requestItem.call(this, {
		method: 'POST',
		path: `/api/v1/automations/${seg(automationId)}/runs/${seg(runId)}/${decision}`,
		body: comment ? { comment } : {},
		itemIndex: i,
	});
}
