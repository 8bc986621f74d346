import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator, taskLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItems, seg } from '../../../shared/transport';

const properties: INodeProperties[] = [projectLocator(), taskLocator()];

export const description = showFor('comment', 'getMany', properties);

/** Lists a task's comments (`GET .../tasks/{taskId}/comments`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const taskId = idParam(this, 'taskId', i, 'Task');
	return await requestItems.call(this, {
		method: 'GET',
		path: `/api/v1/projects/${seg(projectId)}/tasks/${seg(taskId)}/comments`,
		itemIndex: i,
	});
}
