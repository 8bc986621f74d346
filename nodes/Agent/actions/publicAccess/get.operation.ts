import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { agentLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg, taskspaceRequest } from '../../../shared/transport';

const properties: INodeProperties[] = [agentLocator()];

export const description = showFor('publicAccess', 'get', properties);

/** Reads the public agent and its URL (`GET /agents/{id}/public-agent`; 404 while public access is off). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const agentId = idParam(this, 'agentId', i, 'Agent');
	const body = await taskspaceRequest.call(this, {
		method: 'GET',
		path: `/api/v1/agents/${seg(agentId)}/public-agent`,
		itemIndex: i,
	});
	return { ...(body.item as IDataObject), publicUrl: body.publicUrl };
}
