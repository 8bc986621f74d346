import type { INodeProperties } from 'n8n-workflow';

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
	displayName: 'Media ID',
	name: 'mediaId',
	type: 'string',
	default: '',
	required: true,
	displayOptions: { show: { kind: ['media'] } },
};
