import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { agentLocator, returnAllAndLimit } from '../../../shared/descriptions';
import { getAllPages, wantedCount } from '../../../shared/paging';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg } from '../../../shared/transport';

const properties: INodeProperties[] = [agentLocator(), ...returnAllAndLimit()];

export const description = showFor('conversation', 'getMany', properties);

/** Lists an agent's conversations, newest first (`GET /agents/{id}/convos/`, paged). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const agentId = idParam(this, 'agentId', i, 'Agent');
	return await getAllPages.call(this, `/api/v1/agents/${seg(agentId)}/convos/`, wantedCount.call(this, i), {}, i);
}
