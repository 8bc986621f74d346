import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { workspaceLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItems } from '../../../shared/transport';

const properties: INodeProperties[] = [workspaceLocator()];

export const description = showFor('automation', 'getMany', properties);

/** Lists a workspace's automations (`GET /automations?workspaceId=`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const workspaceId = idParam(this, 'workspaceId', i, 'Workspace');
	return await requestItems.call(this, { method: 'GET', path: '/api/v1/automations', qs: { workspaceId }, itemIndex: i });
}
