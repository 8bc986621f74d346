import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator, returnAllAndLimit } from '../../../shared/descriptions';
import { getAllPages, wantedCount } from '../../../shared/paging';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg } from '../../../shared/transport';

const properties: INodeProperties[] = [projectLocator(), ...returnAllAndLimit()];

export const description = showFor('member', 'getMany', properties);

/** Lists a project's members `{handle, displayName}` (`GET /projects/{id}/members`, paged). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	return await getAllPages.call(this, `/api/v1/projects/${seg(projectId)}/members`, wantedCount.call(this, i), {}, i);
}
