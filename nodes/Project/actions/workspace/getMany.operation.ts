import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { showFor } from '../../../shared/router';
import { requestItems } from '../../../shared/transport';

const properties: INodeProperties[] = [];

export const description = showFor('workspace', 'getMany', properties);

/** Lists the caller's workspaces `{id, name, role}` (`GET /workspaces`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	return await requestItems.call(this, { method: 'GET', path: '/api/v1/workspaces', itemIndex: i });
}
