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
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
	},
];

export const description = showFor('comment', 'create', properties);

/** Adds a comment to a task (`POST .../tasks/{taskId}/comments {text}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const taskId = idParam(this, 'taskId', i, 'Task');
	const text = checkText(this, i, 'Text', this.getNodeParameter('text', i));
	return await requestItem.call(this, {
		method: 'POST',
		path: `/api/v1/projects/${seg(projectId)}/tasks/${seg(taskId)}/comments`,
		body: { text },
		itemIndex: i,
	});
}
