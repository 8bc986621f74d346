import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator, taskLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
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

/** Handles from the parameter: an array, or a comma-separated string from an expression. */
function handlesOf(value: unknown): string[] {
	const list = Array.isArray(value) ? value : String(value ?? '').split(',');
	return list.map((h) => String(h).trim().replace(/^@/, '')).filter(Boolean);
}

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
