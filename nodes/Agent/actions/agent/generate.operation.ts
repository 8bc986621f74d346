import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { folderLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';
import { checkText } from '../../../shared/validation';

const properties: INodeProperties[] = [
	folderLocator(),
	{
		displayName: 'Prompt',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		placeholder: 'e.g. An assistant that triages support tickets and drafts replies',
		description: 'What the agent should be; the service generates its name, description and commands',
	},
];

export const description = showFor('agent', 'generate', properties);

/** Generates an agent from a prompt through the model provider (`POST /folders/{id}/agent-generate {text}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const folderId = idParam(this, 'folderId', i, 'Folder');
	const text = checkText(this, i, 'Prompt', this.getNodeParameter('text', i));
	return await requestItem.call(this, {
		method: 'POST',
		path: `/api/v1/folders/${seg(folderId)}/agent-generate`,
		body: { text },
		itemIndex: i,
	});
}
