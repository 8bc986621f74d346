import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { positionOptions, projectLocator, taskLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';

const properties: INodeProperties[] = [
	projectLocator(),
	taskLocator({ description: 'Task to move (with its subtasks)' }),
	taskLocator({
		displayName: 'Target Task',
		name: 'targetTaskId',
		description: 'Task the new position is relative to',
	}),
	{
		displayName: 'Position',
		name: 'position',
		type: 'options',
		options: positionOptions,
		default: 'afterend',
	},
];

export const description = showFor('task', 'move', properties);

/** Moves a task with its subtree (`PUT /projects/{id}/tasks/{taskId}/move {target:{taskId, position}}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const taskId = idParam(this, 'taskId', i, 'Task');
	const targetTaskId = idParam(this, 'targetTaskId', i, 'Target Task');
	const position = this.getNodeParameter('position', i) as string;
	return await requestItem.call(this, {
		method: 'PUT',
		path: `/api/v1/projects/${seg(projectId)}/tasks/${seg(taskId)}/move`,
		body: { target: { taskId: targetTaskId, position } },
		itemIndex: i,
	});
}
