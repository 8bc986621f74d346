import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator, taskLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg, taskspaceRequest } from '../../../shared/transport';

const properties: INodeProperties[] = [projectLocator(), taskLocator()];

export const description = showFor('note', 'delete', properties);

/** Removes a task's note (`DELETE .../tasks/{taskId}/note`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const taskId = idParam(this, 'taskId', i, 'Task');
	await taskspaceRequest.call(this, {
		method: 'DELETE',
		path: `/api/v1/projects/${seg(projectId)}/tasks/${seg(taskId)}/note`,
		itemIndex: i,
	});
	return { deleted: true, projectId, taskId };
}
