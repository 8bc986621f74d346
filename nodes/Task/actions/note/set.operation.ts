import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator, taskLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';
import { checkText } from '../../../shared/validation';

const properties: INodeProperties[] = [
	projectLocator(),
	taskLocator(),
	{
		displayName: 'Note',
		name: 'value',
		type: 'string',
		default: '',
		required: true,
		description: 'Text of the note: one line, not empty',
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		options: [
			{ name: 'Markdown', value: 'text/markdown' },
			{ name: 'Plain Text', value: 'text/plain' },
		],
		default: 'text/plain',
	},
];

export const description = showFor('note', 'set', properties);

/** Creates or replaces a task's note (`PUT .../tasks/{taskId}/note {type, value}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const taskId = idParam(this, 'taskId', i, 'Task');
	const value = checkText(this, i, 'Note', this.getNodeParameter('value', i), { singleLine: true });
	const type = this.getNodeParameter('type', i) as string;
	return await requestItem.call(this, {
		method: 'PUT',
		path: `/api/v1/projects/${seg(projectId)}/tasks/${seg(taskId)}/note`,
		body: { type, value },
		itemIndex: i,
	});
}
