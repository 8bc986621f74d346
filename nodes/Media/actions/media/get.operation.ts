import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { mediaIdProperty } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';

const properties: INodeProperties[] = [mediaIdProperty];

export const description = showFor('media', 'get', properties);

/** Reads a media item (`GET /medias/{id}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const mediaId = idParam(this, 'mediaId', i, 'Media');
	return await requestItem.call(this, { method: 'GET', path: `/api/v1/medias/${seg(mediaId)}`, itemIndex: i });
}
