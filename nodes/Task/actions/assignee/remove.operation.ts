import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator, taskLocator } from '../../../shared/descriptions';
import { handleOf, idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';
import { checkText } from '../../../shared/validation';

const properties: INodeProperties[] = [
	projectLocator(),
	taskLocator(),
	{
		displayName: 'Assignee Name or ID',
		name: 'handle',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getMembers', loadOptionsDependsOn: ['projectId.value'] },
		default: '',
		required: true,
		description:
			'Member to unassign. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];

export const description = showFor('assignee', 'remove', properties);

/** Unassigns one member (`DELETE .../tasks/{taskId}/assignees/{handle}`); returns the task. */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const taskId = idParam(this, 'taskId', i, 'Task');
	const handle = checkText(this, i, 'Assignee', handleOf(this.getNodeParameter('handle', i)));
	return await requestItem.call(this, {
		method: 'DELETE',
		path: `/api/v1/projects/${seg(projectId)}/tasks/${seg(taskId)}/assignees/${seg(handle)}`,
		itemIndex: i,
	});
}
