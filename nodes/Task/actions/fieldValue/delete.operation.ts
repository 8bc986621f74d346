import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator, taskLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg, taskspaceRequest } from '../../../shared/transport';
import { fieldProperty } from './shared';

const properties: INodeProperties[] = [projectLocator(), taskLocator(), fieldProperty];

export const description = showFor('fieldValue', 'delete', properties);

/** Clears a task's value of a custom field (`DELETE .../tasks/{taskId}/fields/{fieldId}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const taskId = idParam(this, 'taskId', i, 'Task');
	const fieldId = idParam(this, 'fieldId', i, 'Field');
	await taskspaceRequest.call(this, {
		method: 'DELETE',
		path: `/api/v1/projects/${seg(projectId)}/tasks/${seg(taskId)}/fields/${seg(fieldId)}`,
		itemIndex: i,
	});
	return { deleted: true, projectId, taskId, fieldId };
}
