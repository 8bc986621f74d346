import type { INodeProperties } from 'n8n-workflow';

/** The media id parameter. */
export const mediaIdProperty: INodeProperties = {
	displayName: 'Media ID',
	name: 'mediaId',
	type: 'string',
	default: '',
	required: true,
};
