import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { workspaceLocator } from '../../../shared/descriptions';
import { collectionParam, idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';
import { checkText } from '../../../shared/validation';

const properties: INodeProperties[] = [
	workspaceLocator(),
	{ displayName: 'Name', name: 'name', type: 'string', default: '', required: true },
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Parent Folder ID',
				name: 'parentId',
				type: 'string',
				default: '',
				description: 'Folder to nest the new folder in (defaults to the top level)',
			},
		],
	},
];

export const description = showFor('folder', 'create', properties);

/** Creates a folder in a workspace (`POST /workspaces/{id}/folders {name, parentId?}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const workspaceId = idParam(this, 'workspaceId', i, 'Workspace');
	const name = checkText(this, i, 'Name', this.getNodeParameter('name', i), { max: 200, singleLine: true });
	const options = collectionParam(this, 'options', i);
	const body: IDataObject = { name };
	if (options.parentId) body.parentId = String(options.parentId).trim();
	return await requestItem.call(this, {
		method: 'POST',
		path: `/api/v1/workspaces/${seg(workspaceId)}/folders`,
		body,
		itemIndex: i,
	});
}
