import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { agentLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';

const properties: INodeProperties[] = [agentLocator()];

export const description = showFor('agent', 'get', properties);

/** Reads an agent (`GET /agents/{id}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const agentId = idParam(this, 'agentId', i, 'Agent');
	return await requestItem.call(this, { method: 'GET', path: `/api/v1/agents/${seg(agentId)}`, itemIndex: i });
}
