import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { agentLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg, taskspaceRequest } from '../../../shared/transport';

const properties: INodeProperties[] = [agentLocator()];

export const description = showFor('agent', 'delete', properties);

/** Deletes an agent (`DELETE /agents/{id}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const agentId = idParam(this, 'agentId', i, 'Agent');
	await taskspaceRequest.call(this, { method: 'DELETE', path: `/api/v1/agents/${seg(agentId)}`, itemIndex: i });
	return { deleted: true, agentId };
}
