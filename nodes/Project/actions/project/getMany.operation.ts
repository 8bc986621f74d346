import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { folderLocator, returnAllAndLimit } from '../../../shared/descriptions';
import { getAllPages, wantedCount } from '../../../shared/paging';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg } from '../../../shared/transport';

const properties: INodeProperties[] = [
	{
		displayName: 'Source',
		name: 'source',
		type: 'options',
		options: [
			{ name: 'Folder', value: 'folder', description: 'Projects of one folder or workspace' },
			{ name: 'Mine', value: 'mine', description: 'Every project I can access' },
		],
		default: 'folder',
	},
	folderLocator({ displayOptions: { show: { source: ['folder'] } } }),
	...returnAllAndLimit(),
];

export const description = showFor('project', 'getMany', properties);

/** Lists the projects of a folder (`GET /folders/{id}/projects`) or the caller's (`GET /me/projects`), both paged. */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const wanted = wantedCount.call(this, i);
	if (this.getNodeParameter('source', i) === 'mine') {
		return await getAllPages.call(this, '/api/v1/me/projects', wanted, {}, i);
	}
	const folderId = idParam(this, 'folderId', i, 'Folder');
	return await getAllPages.call(this, `/api/v1/folders/${seg(folderId)}/projects`, wanted, {}, i);
}
