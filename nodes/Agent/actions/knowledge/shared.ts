import type { INodeProperties } from 'n8n-workflow';

import { mediaIdProperty as mediaId } from '../../../shared/descriptions';

/** Which kind of knowledge an operation attaches or detaches. */
export const knowledgeKindProperty: INodeProperties = {
	displayName: 'Knowledge Type',
	name: 'kind',
	type: 'options',
	options: [
		{ name: 'Media', value: 'media' },
		{ name: 'Project', value: 'project' },
	],
	default: 'project',
};

/** The media id, for media knowledge. */
export const mediaIdProperty: INodeProperties = {
	...mediaId,
	displayOptions: { show: { kind: ['media'] } },
};
