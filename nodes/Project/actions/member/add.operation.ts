import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { projectLocator } from '../../../shared/descriptions';
import { handlesOf, idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { taskspaceRequest, seg } from '../../../shared/transport';

const properties: INodeProperties[] = [
	projectLocator(),
	{
		displayName: 'Handles',
		name: 'handles',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. alice, bob',
		description: 'Comma-separated handles of workspace members to add to the project',
	},
];

export const description = showFor('member', 'add', properties);

/**
 * Adds members to a project by handle (`PUT /projects/{id}/members`) and outputs one item per
 * member named in the input (`{handle, displayName, projectId}`), as n8n lists do.
 */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const handles = handlesOf(this.getNodeParameter('handles', i));
	if (handles.length === 0) {
		throw new NodeOperationError(this.getNode(), 'At least one handle is required', { itemIndex: i });
	}
	const body = await taskspaceRequest.call(this, {
		method: 'PUT',
		path: `/api/v1/projects/${seg(projectId)}/members`,
		body: { handles },
		itemIndex: i,
	});
	const wanted = new Set(handles.map((h) => h.toLowerCase()));
	const members = Array.isArray(body.items) ? (body.items as IDataObject[]) : [];
	return members.filter((m) => wanted.has(String(m.handle).toLowerCase())).map((m) => ({ ...m, projectId }));
}
