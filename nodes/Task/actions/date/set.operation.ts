import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toServiceDate } from '../../../shared/dates';
import { projectLocator, taskLocator, timeZoneOptions } from '../../../shared/descriptions';
import { collectionParam, idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';

const properties: INodeProperties[] = [
	projectLocator(),
	taskLocator(),
	{
		displayName: 'Start',
		name: 'start',
		type: 'dateTime',
		default: '',
		description: 'When the task starts; leave empty for a due date only',
	},
	{
		displayName: 'End (Due)',
		name: 'end',
		type: 'dateTime',
		default: '',
		description: 'When the task is due',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'All Day',
				name: 'allDay',
				type: 'boolean',
				default: false,
				description: 'Whether to send dates only, without a time of day',
			},
			{
				displayName: 'Timezone',
				name: 'timezone',
				type: 'options',
				options: timeZoneOptions(),
				default: 'UTC',
				description: "IANA time zone of the times (without this option: the workflow's timezone)",
			},
		],
	},
];

export const description = showFor('date', 'set', properties);

/**
 * Sets a task's start and/or end (`PUT .../tasks/{taskId}/date`). n8n date values are
 * converted to `{date, time, timezone}` in the workflow's timezone (or the chosen one).
 */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const taskId = idParam(this, 'taskId', i, 'Task');
	const options = collectionParam(this, 'options', i);
	const zone = String(options.timezone ?? '').trim() || this.getTimezone();
	const allDay = options.allDay === true;
	const body: IDataObject = {};
	for (const [name, label] of [
		['start', 'Start'],
		['end', 'End'],
	] as const) {
		const value = this.getNodeParameter(name, i, '') as unknown;
		if (value !== '' && value !== null && value !== undefined) {
			body[name] = toServiceDate(this, i, label, value, zone, allDay);
		}
	}
	if (!body.start && !body.end) {
		throw new NodeOperationError(this.getNode(), 'Set a start, an end, or both', { itemIndex: i });
	}
	return await requestItem.call(this, {
		method: 'PUT',
		path: `/api/v1/projects/${seg(projectId)}/tasks/${seg(taskId)}/date`,
		body,
		itemIndex: i,
	});
}
