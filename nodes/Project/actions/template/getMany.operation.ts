import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { folderLocator, returnAllAndLimit } from '../../../shared/descriptions';
import { getAllPages, wantedCount } from '../../../shared/paging';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg } from '../../../shared/transport';

const properties: INodeProperties[] = [folderLocator(), ...returnAllAndLimit()];

export const description = showFor('template', 'getMany', properties);

/** Lists a folder's project templates (`GET /folders/{id}/project-templates`, paged). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const folderId = idParam(this, 'folderId', i, 'Folder');
	return await getAllPages.call(
		this,
		`/api/v1/folders/${seg(folderId)}/project-templates`,
		wantedCount.call(this, i),
		{},
		i,
	);
}
