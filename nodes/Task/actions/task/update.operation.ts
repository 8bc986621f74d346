import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { contentTypeProperty, projectLocator, taskLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';
import { checkTaskContent } from '../../../shared/validation';

const properties: INodeProperties[] = [
	projectLocator(),
	taskLocator(),
	{
		displayName: 'Content',
		name: 'content',
		type: 'string',
		default: '',
		required: true,
		description: 'New text of the task: one line, at most 2000 characters',
	},
	contentTypeProperty,
];

export const description = showFor('task', 'update', properties);

/** Replaces a task's content (`PUT /projects/{id}/tasks/{taskId}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const taskId = idParam(this, 'taskId', i, 'Task');
	const content = checkTaskContent(this, i, this.getNodeParameter('content', i));
	const contentType = this.getNodeParameter('contentType', i) as string;
	return await requestItem.call(this, {
		method: 'PUT',
		path: `/api/v1/projects/${seg(projectId)}/tasks/${seg(taskId)}`,
		body: { contentType, content },
		itemIndex: i,
	});
}
