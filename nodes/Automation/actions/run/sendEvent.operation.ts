import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { runLocator } from '../../../shared/descriptions';
import { idParam, jsonParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';
import { automationIdProperty } from '../shared';

const properties: INodeProperties[] = [
	automationIdProperty,
	runLocator({ description: 'A run waiting on a Wait for Event step (the list shows the runs of the automation, newest first)' }),
	{
		displayName: 'Event Name',
		name: 'event',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. payment.received',
		description: 'The name the run\'s Wait for Event step waits for (letters, digits, _, - and .)',
	},
	{
		displayName: 'Payload (JSON)',
		name: 'payload',
		type: 'json',
		default: '{}',
		description: 'JSON the waiting step outputs as its payload; later steps of the run read it',
	},
];

export const description = showFor('run', 'sendEvent', properties);

/**
 * Sends an event to a run waiting on a `wait.event` step (`POST /api/v1/runs/{runId}/events/{event}`):
 * the run continues with the payload as that step's output. Answers `{runId, status}`.
 */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const runId = idParam(this, 'runId', i, 'Run');
	const event = (this.getNodeParameter('event', i) as string).trim();
	const payload = jsonParam(this, 'payload', i, 'Payload (JSON)');
	return await requestItem.call(this, { method: 'POST', path: `/api/v1/runs/${seg(runId)}/events/${seg(event)}`, body: payload as IDataObject, itemIndex: i });
}
