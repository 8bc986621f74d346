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
		description: 'Text given to the command (replaces {{ input }} in its prompt)',
	},
];

export const description = showFor('agent', 'runCommand', properties);

/** Runs one of the agent's commands and returns the conversation (`POST /agents/{id}/convos {command, input?}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const agentId = idParam(this, 'agentId', i, 'Agent');
	const command = checkText(this, i, 'Command', String(this.getNodeParameter('command', i) ?? '').trim());
	const input = this.getNodeParameter('input', i, '') as string;
	const body: IDataObject = { command };
	if (input !== '') body.input = input;
	return await requestItem.call(this, {
		method: 'POST',
		path: `/api/v1/agents/${seg(agentId)}/convos`,
		body,
		itemIndex: i,
	});
}
