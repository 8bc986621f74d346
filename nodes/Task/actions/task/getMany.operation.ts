import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { cursorOptions, readCursor } from '../../../shared/cursor';
import { toInstant } from '../../../shared/dates';
import { projectLocator, returnAllAndLimit } from '../../../shared/descriptions';
import { getAllCursor, wantedCount } from '../../../shared/paging';
import { collectionParam, handleOf, idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg } from '../../../shared/transport';

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{
			displayName: 'Assignee',
			name: 'assignee',
			type: 'string',
			default: '',
			placeholder: '@ann',
			description: 'Only tasks assigned to this member (handle, with or without @)',
		},
		{
			displayName: 'Completed',
			name: 'completed',
			type: 'boolean',
			default: false,
			description: 'Whether to return only completed tasks (on) or only open tasks (off)',
		},
		{
			displayName: 'Due After',
			name: 'dueAfter',
			type: 'dateTime',
			default: '',
			description: 'Only tasks due at or after this time (read in the workflow timezone)',
		},
		{
			displayName: 'Due Before',
			name: 'dueBefore',
			type: 'dateTime',
			default: '',
			description: 'Only tasks due before this time (read in the workflow timezone)',
		},
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			description: 'Only tasks whose text contains this (not case-sensitive)',
		},
	],
};

const properties: INodeProperties[] = [projectLocator(), ...returnAllAndLimit(), filters, cursorOptions('task')];

export const description = showFor('task', 'getMany', properties);

/** The service's task list query for the Filters collection (docs "API notes": task list filters). */
function filterQuery(ctx: IExecuteFunctions, i: number): IDataObject {
	const chosen = collectionParam(ctx, 'filters', i);
	const zone = ctx.getTimezone();
	const qs: IDataObject = {};
	if (typeof chosen.search === 'string' && chosen.search !== '') qs.search = chosen.search;
	if (typeof chosen.completed === 'boolean') qs.completed = chosen.completed;
	if (chosen.assignee) qs.assignee = handleOf(chosen.assignee);
	if (chosen.dueBefore) qs.dueBefore = toInstant(ctx, i, 'Due Before', chosen.dueBefore, zone);
	if (chosen.dueAfter) qs.dueAfter = toInstant(ctx, i, 'Due After', chosen.dueAfter, zone);
	return qs;
}

/** Lists a project's tasks in document order (`GET /projects/{id}/tasks`, cursor paging), optionally filtered. */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const cursor = readCursor(this, i, collectionParam(this, 'options', i));
	return await getAllCursor.call(this, `/api/v1/projects/${seg(projectId)}/tasks`, wantedCount.call(this, i), cursor, i, filterQuery(this, i));
}
