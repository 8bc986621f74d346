import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { mediaIdProperty } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { ItemsResult, showFor } from '../../../shared/router';
import { requestBytes, requestItem, seg } from '../../../shared/transport';

const properties: INodeProperties[] = [
	mediaIdProperty,
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the output binary field to put the file in',
	},
];

export const description = showFor('media', 'download', properties);

/** Downloads a media item's bytes (`GET /medias/{id}/content`) into a binary field; the JSON is the media item. */
export async function execute(this: IExecuteFunctions, i: number): Promise<ItemsResult> {
	const mediaId = idParam(this, 'mediaId', i, 'Media');
	const binaryPropertyName = this.getNodeParameter('binaryPropertyName', i) as string;
	const media = await requestItem.call(this, { method: 'GET', path: `/api/v1/medias/${seg(mediaId)}`, itemIndex: i });
	const { data, headers } = await requestBytes.call(this, {
		method: 'GET',
		path: `/api/v1/medias/${seg(mediaId)}/content`,
		itemIndex: i,
	});
	const mimeType = String(media.contentType ?? headers['content-type'] ?? 'application/octet-stream');
	const binary = await this.helpers.prepareBinaryData(data, String(media.name ?? mediaId), mimeType);
	return new ItemsResult([{ json: media, binary: { [binaryPropertyName]: binary } }]);
}
