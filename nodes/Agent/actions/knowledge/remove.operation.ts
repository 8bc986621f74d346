import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { agentLocator, projectLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg, taskspaceRequest } from '../../../shared/transport';
import { knowledgeKindProperty, mediaIdProperty } from './shared';

const properties: INodeProperties[] = [
	agentLocator(),
	knowledgeKindProperty,
	projectLocator({ displayOptions: { show: { kind: ['project'] } } }),
	mediaIdProperty,
];

export const description = showFor('knowledge', 'remove', properties);

/** Detaches a project or a media item from an agent's knowledge (`DELETE /agents/{id}/knowledge/{kind}/{id}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const agentId = idParam(this, 'agentId', i, 'Agent');
	const kind = this.getNodeParameter('kind', i) as 'project' | 'media';
	const id = kind === 'project' ? idParam(this, 'projectId', i, 'Project') : idParam(this, 'mediaId', i, 'Media');
	await taskspaceRequest.call(this, {
		method: 'DELETE',
		path: `/api/v1/agents/${seg(agentId)}/knowledge/${kind}/${seg(id)}`,
		itemIndex: i,
	});
	return { removed: true, agentId, kind, id };
}
