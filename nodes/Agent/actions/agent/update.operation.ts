import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { agentLocator } from '../../../shared/descriptions';
import { collectionParam, idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';
import { checkText } from '../../../shared/validation';
import { agentDataFields, agentDataOf } from './data';

const properties: INodeProperties[] = [
	agentLocator(),
	{
		displayName: 'New Name',
		name: 'name',
		type: 'string',
		default: '',
		description: 'Leave empty to keep the current name',
	},
	agentDataFields('updateFields', 'Update Fields'),
];

export const description = showFor('agent', 'update', properties);

/** Updates an agent (`PATCH /agents/{id}`): `data` merges key by key, commands replace the list. */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const agentId = idParam(this, 'agentId', i, 'Agent');
	const body: IDataObject = {};
	const name = this.getNodeParameter('name', i, '') as string;
	if (name !== '') body.name = checkText(this, i, 'New Name', name, { singleLine: true, max: 200 });
	const data = agentDataOf(this, i, collectionParam(this, 'updateFields', i));
	if (Object.keys(data).length > 0) body.data = data;
	if (Object.keys(body).length === 0) {
		throw new NodeOperationError(this.getNode(), 'Nothing to update: set a new name or at least one field', {
			itemIndex: i,
		});
	}
	return await requestItem.call(this, {
		method: 'PATCH',
		path: `/api/v1/agents/${seg(agentId)}`,
		body,
		itemIndex: i,
	});
}
