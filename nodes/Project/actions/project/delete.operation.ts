import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg, taskspaceRequest } from '../../../shared/transport';

const properties: INodeProperties[] = [projectLocator()];

export const description = showFor('project', 'delete', properties);

/** Deletes a project with all its tasks (`DELETE /projects/{id}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	await taskspaceRequest.call(this, {
		method: 'DELETE',
		path: `/api/v1/projects/${seg(projectId)}`,
		itemIndex: i,
	});
	return { deleted: true, projectId };
}
