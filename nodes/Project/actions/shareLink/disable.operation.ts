import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg, taskspaceRequest } from '../../../shared/transport';

const properties: INodeProperties[] = [projectLocator()];

export const description = showFor('shareLink', 'disable', properties);

/** Revokes a project's share link: its URLs stop working (`DELETE /projects/{id}/shareLink`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	await taskspaceRequest.call(this, {
		method: 'DELETE',
		path: `/api/v1/projects/${seg(projectId)}/shareLink`,
		itemIndex: i,
	});
	return { disabled: true, projectId };
}
