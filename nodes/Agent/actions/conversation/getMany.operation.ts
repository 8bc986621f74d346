import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { agentLocator, returnAllAndLimit } from '../../../shared/descriptions';
import { getAllPages, wantedCount } from '../../../shared/paging';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg } from '../../../shared/transport';

const properties: INodeProperties[] = [
	agentLocator(),
	...returnAllAndLimit(),
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: 'Whether to return a simplified version of the response instead of the raw data (the IDs, title, status, times, the number of messages and the last answer, without the messages)',
	},
];

/** The short form of a conversation (Simplify): without its messages. */
function simplified(conversation: IDataObject): IDataObject {
	const messages = ((conversation.data ?? {}) as { messages?: Array<{ role?: string; content?: string }> }).messages ?? [];
	const answer = [...messages].reverse().find((m) => m.role === 'assistant')?.content ?? null;
	return {
		id: conversation.id,
		agentId: conversation.space_agent_id,
		title: conversation.title,
		status: conversation.status,
		createdAt: conversation.createdAt,
		updatedAt: conversation.updatedAt,
		messageCount: messages.length,
		answer,
	};
}

export const description = showFor('conversation', 'getMany', properties);

/** Lists an agent's conversations, newest first (`GET /agents/{id}/convos/`, paged). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const agentId = idParam(this, 'agentId', i, 'Agent');
	const convos = await getAllPages.call(this, `/api/v1/agents/${seg(agentId)}/convos/`, wantedCount.call(this, i), {}, i);
	return this.getNodeParameter('simplify', i, true) ? convos.map(simplified) : convos;
}
