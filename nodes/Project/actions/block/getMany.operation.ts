import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator, returnAllAndLimit } from '../../../shared/descriptions';
import { getAllCursor, wantedCount } from '../../../shared/paging';
import { collectionParam, idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg } from '../../../shared/transport';
import { cursorOptions, readCursor } from '../../../shared/cursor';

const properties: INodeProperties[] = [projectLocator(), ...returnAllAndLimit(), cursorOptions('block')];

export const description = showFor('block', 'getMany', properties);

/** Lists a project's top-level tasks (`GET /projects/{id}/blocks`, cursor paging). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const cursor = readCursor(this, i, collectionParam(this, 'options', i));
	return await getAllCursor.call(this, `/api/v1/projects/${seg(projectId)}/blocks`, wantedCount.call(this, i), cursor, i);
}
