import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { folderLocator } from '../../../shared/descriptions';
import { collectionParam, idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';
import { checkText } from '../../../shared/validation';
import { agentDataFields, agentDataOf } from './data';

const properties: INodeProperties[] = [
	folderLocator(),
	{ displayName: 'Name', name: 'name', type: 'string', default: '', required: true },
	agentDataFields('agentData', 'Agent Data'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Agent Type',
				name: 'type',
				type: 'string',
				default: '',
				description: 'Free-form type label stored with the agent',
			},
		],
	},
];

export const description = showFor('agent', 'create', properties);

/** Creates an agent in a folder (`POST /folders/{id}/agents {name, data:{type, data: AgentData}}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const folderId = idParam(this, 'folderId', i, 'Folder');
	const name = checkText(this, i, 'Name', this.getNodeParameter('name', i), { singleLine: true, max: 200 });
	const agentData = agentDataOf(this, i, collectionParam(this, 'agentData', i));
	const options = collectionParam(this, 'options', i);
	const data: IDataObject = { data: agentData };
	if (typeof options.type === 'string' && options.type.trim()) data.type = options.type.trim();
	return await requestItem.call(this, {
		method: 'POST',
		path: `/api/v1/folders/${seg(folderId)}/agents`,
		body: { name, data },
		itemIndex: i,
	});
}
