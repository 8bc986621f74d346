import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { agentLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg, taskspaceRequest } from '../../../shared/transport';

const properties: INodeProperties[] = [agentLocator()];

export const description = showFor('publicAccess', 'enable', properties);

/** Enables an agent's public access and returns `{agentId, publicUrl}` (`PUT /agents/{id}/publicAccess`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const agentId = idParam(this, 'agentId', i, 'Agent');
	const body = await taskspaceRequest.call(this, {
		method: 'PUT',
		path: `/api/v1/agents/${seg(agentId)}/publicAccess`,
		itemIndex: i,
	});
	return { agentId, publicUrl: body.publicUrl };
}
