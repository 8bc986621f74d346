import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg, taskspaceRequest } from '../../../shared/transport';

const properties: INodeProperties[] = [projectLocator()];

export const description = showFor('shareLink', 'get', properties);

/**
 * Reads a project's share link URLs `{checkUrl, editUrl, viewUrl}` (`GET /projects/{id}/shareLink`);
 * a project without a share link (the service answers `item: null`) gives `{projectId, enabled: false}`.
 */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const body = await taskspaceRequest.call(this, {
		method: 'GET',
		path: `/api/v1/projects/${seg(projectId)}/shareLink`,
		itemIndex: i,
	});
	return body.item ? (body.item as IDataObject) : { projectId, enabled: false };
}
