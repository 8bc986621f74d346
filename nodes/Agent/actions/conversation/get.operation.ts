import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { agentLocator, conversationLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';

const properties: INodeProperties[] = [
	agentLocator(),
	conversationLocator(),
];

export const description = showFor('conversation', 'get', properties);

/** Reads one conversation (`GET /agents/{id}/convos/{convoId}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const agentId = idParam(this, 'agentId', i, 'Agent');
	const convoId = idParam(this, 'convoId', i, 'Conversation');
	return await requestItem.call(this, {
		method: 'GET',
		path: `/api/v1/agents/${seg(agentId)}/convos/${seg(convoId)}`,
		itemIndex: i,
	});
}
