import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { agentLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';
import { checkText } from '../../../shared/validation';

const properties: INodeProperties[] = [
	agentLocator(),
	{
		displayName: 'Command',
		name: 'command',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. summarize',
		description: "Name or ID of one of the agent's commands",
	},
	{
		displayName: 'Input',
		name: 'input',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		description: 'Text given to the command (replaces [[input]] in its prompt)',
	},
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description: 'Whether to return only the answer and its IDs instead of the whole conversation',
	},
];

/** The answer of a conversation with its IDs (Simplify): the last assistant message. */
function simplified(conversation: IDataObject): IDataObject {
	const data = (conversation.data ?? {}) as { messages?: Array<{ role?: string; content?: string }>; llm?: IDataObject };
	const answer = [...(data.messages ?? [])].reverse().find((m) => m.role === 'assistant')?.content ?? null;
	return { conversationId: conversation.id, agentId: conversation.space_agent_id, status: conversation.status, answer };
}

export const description = showFor('agent', 'runCommand', properties);

/** Runs one of the agent's commands and returns the conversation, or with Simplify just the answer (`POST /agents/{id}/convos {command, input?}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const agentId = idParam(this, 'agentId', i, 'Agent');
	const command = checkText(this, i, 'Command', String(this.getNodeParameter('command', i) ?? '').trim());
	const input = this.getNodeParameter('input', i, '') as string;
	const body: IDataObject = { command };
	if (input !== '') body.input = input;
	const conversation = await requestItem.call(this, {
		method: 'POST',
		path: `/api/v1/agents/${seg(agentId)}/convos`,
		body,
		itemIndex: i,
	});
	return this.getNodeParameter('simplify', i, false) ? simplified(conversation) : conversation;
}
