import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator, taskLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg, taskspaceRequest } from '../../../shared/transport';

const properties: INodeProperties[] = [projectLocator(), taskLocator()];

export const description = showFor('task', 'delete', properties);

/** Deletes a task and its subtasks (`DELETE /projects/{id}/tasks/{taskId}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const taskId = idParam(this, 'taskId', i, 'Task');
	await taskspaceRequest.call(this, {
		method: 'DELETE',
		path: `/api/v1/projects/${seg(projectId)}/tasks/${seg(taskId)}`,
		itemIndex: i,
	});
	return { deleted: true, projectId, taskId };
}
