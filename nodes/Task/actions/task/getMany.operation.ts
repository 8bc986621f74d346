import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { cursorOptions, readCursor } from '../../../shared/cursor';
import { projectLocator, returnAllAndLimit } from '../../../shared/descriptions';
import { getAllCursor, wantedCount } from '../../../shared/paging';
import { collectionParam, idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg } from '../../../shared/transport';

const properties: INodeProperties[] = [projectLocator(), ...returnAllAndLimit(), cursorOptions('task')];

export const description = showFor('task', 'getMany', properties);

/** Lists a project's tasks in document order (`GET /projects/{id}/tasks`, cursor paging). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const cursor = readCursor(this, i, collectionParam(this, 'options', i));
	return await getAllCursor.call(this, `/api/v1/projects/${seg(projectId)}/tasks`, wantedCount.call(this, i), cursor, i);
}
