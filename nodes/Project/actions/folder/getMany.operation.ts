import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { workspaceLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItems, seg } from '../../../shared/transport';

const properties: INodeProperties[] = [workspaceLocator()];

export const description = showFor('folder', 'getMany', properties);

/** Lists a workspace's folders, home folder first (`GET /workspaces/{id}/folders`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const workspaceId = idParam(this, 'workspaceId', i, 'Workspace');
	return await requestItems.call(this, {
		method: 'GET',
		path: `/api/v1/workspaces/${seg(workspaceId)}/folders`,
		itemIndex: i,
	});
}
