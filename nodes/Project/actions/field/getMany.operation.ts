import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItems, seg } from '../../../shared/transport';

const properties: INodeProperties[] = [projectLocator()];

export const description = showFor('field', 'getMany', properties);

/** Lists a project's custom field definitions (`GET /projects/{id}/fields`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	return await requestItems.call(this, {
		method: 'GET',
		path: `/api/v1/projects/${seg(projectId)}/fields`,
		itemIndex: i,
	});
}
