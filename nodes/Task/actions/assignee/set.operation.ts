import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator, taskLocator } from '../../../shared/descriptions';
import { handlesOf, idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';

const properties: INodeProperties[] = [
	projectLocator(),
	taskLocator(),
	{
		displayName: 'Assignee Names or IDs',
		name: 'handles',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getMembers', loadOptionsDependsOn: ['projectId.value'] },
		default: [],
		description:
			'Members to assign; they replace the current assignees and an empty list unassigns everyone. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];

export const description = showFor('assignee', 'set', properties);

/** Sets a task's assignees (`PUT .../tasks/{taskId}/assignees {handles}`); returns the task. */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const taskId = idParam(this, 'taskId', i, 'Task');
	const handles = handlesOf(this.getNodeParameter('handles', i));
	return await requestItem.call(this, {
		method: 'PUT',
		path: `/api/v1/projects/${seg(projectId)}/tasks/${seg(taskId)}/assignees`,
		body: { handles },
		itemIndex: i,
	});
}
