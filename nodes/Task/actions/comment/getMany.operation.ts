import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator, returnAllAndLimit, taskLocator } from '../../../shared/descriptions';
import { getAllPages, wantedCount } from '../../../shared/paging';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg } from '../../../shared/transport';

const properties: INodeProperties[] = [projectLocator(), taskLocator(), ...returnAllAndLimit()];

export const description = showFor('comment', 'getMany', properties);

/** Lists a task's comments (`GET .../tasks/{taskId}/comments`, paged: Return All walks every page). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const taskId = idParam(this, 'taskId', i, 'Task');
	return await getAllPages.call(this, `/api/v1/projects/${seg(projectId)}/tasks/${seg(taskId)}/comments`, wantedCount.call(this, i), {}, i);
}
