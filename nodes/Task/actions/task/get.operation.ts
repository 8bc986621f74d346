import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator, taskLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';

const properties: INodeProperties[] = [projectLocator(), taskLocator()];

export const description = showFor('task', 'get', properties);

/** Reads a task (`GET /projects/{id}/tasks/{taskId}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const taskId = idParam(this, 'taskId', i, 'Task');
	return await requestItem.call(this, {
		method: 'GET',
		path: `/api/v1/projects/${seg(projectId)}/tasks/${seg(taskId)}`,
		itemIndex: i,
	});
}
