import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator, taskLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';
import { fieldProperty } from './shared';

const properties: INodeProperties[] = [projectLocator(), taskLocator(), fieldProperty];

export const description = showFor('fieldValue', 'get', properties);

/** Reads a task's value of a custom field `{fieldId, value}` (`GET .../tasks/{taskId}/fields/{fieldId}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const taskId = idParam(this, 'taskId', i, 'Task');
	const fieldId = idParam(this, 'fieldId', i, 'Field');
	return await requestItem.call(this, {
		method: 'GET',
		path: `/api/v1/projects/${seg(projectId)}/tasks/${seg(taskId)}/fields/${seg(fieldId)}`,
		itemIndex: i,
	});
}
