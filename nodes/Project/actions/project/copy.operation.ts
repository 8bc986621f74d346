import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { folderLocator, projectLocator } from '../../../shared/descriptions';
import { collectionParam, idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';
import { checkText } from '../../../shared/validation';

const properties: INodeProperties[] = [
	projectLocator({ description: 'Project to copy, with all its tasks' }),
	folderLocator({ displayName: 'Destination Folder' }),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Title',
				name: 'projectTitle',
				type: 'string',
				default: '',
				description: "Name of the copy (defaults to the original's)",
			},
		],
	},
];

export const description = showFor('project', 'copy', properties);

/** Copies a project's whole tree into a folder (`POST /projects/{id}/copy`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const folderId = idParam(this, 'folderId', i, 'Destination Folder');
	const options = collectionParam(this, 'options', i);
	const body: IDataObject = { folderId };
	if (options.projectTitle !== undefined && options.projectTitle !== '') {
		body.projectTitle = checkText(this, i, 'Title', options.projectTitle);
	}
	return await requestItem.call(this, {
		method: 'POST',
		path: `/api/v1/projects/${seg(projectId)}/copy`,
		body,
		itemIndex: i,
	});
}
