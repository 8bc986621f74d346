import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { agentLocator, projectLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';
import { knowledgeKindProperty, mediaIdProperty } from './shared';

const properties: INodeProperties[] = [
	agentLocator(),
	knowledgeKindProperty,
	projectLocator({ displayOptions: { show: { kind: ['project'] } } }),
	mediaIdProperty,
];

export const description = showFor('knowledge', 'add', properties);

/** Attaches a project or a media item to an agent's knowledge (`POST /agents/{id}/knowledge/{project|media}`); returns the agent. */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const agentId = idParam(this, 'agentId', i, 'Agent');
	const kind = this.getNodeParameter('kind', i) as 'project' | 'media';
	const body =
		kind === 'project'
			? { projectId: idParam(this, 'projectId', i, 'Project') }
			: { mediaId: idParam(this, 'mediaId', i, 'Media') };
	return await requestItem.call(this, {
		method: 'POST',
		path: `/api/v1/agents/${seg(agentId)}/knowledge/${kind}`,
		body,
		itemIndex: i,
	});
}
