import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';

const properties: INodeProperties[] = [projectLocator()];

export const description = showFor('shareLink', 'enable', properties);

/** Enables a project's share link and returns its URLs (`PUT /projects/{id}/shareLink`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	return await requestItem.call(this, {
		method: 'PUT',
		path: `/api/v1/projects/${seg(projectId)}/shareLink`,
		itemIndex: i,
	});
}
