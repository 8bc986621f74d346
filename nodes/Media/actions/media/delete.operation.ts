import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { mediaIdProperty } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg, taskspaceRequest } from '../../../shared/transport';

const properties: INodeProperties[] = [mediaIdProperty];

export const description = showFor('media', 'delete', properties);

/** Deletes a media item and its bytes (`DELETE /medias/{id}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const mediaId = idParam(this, 'mediaId', i, 'Media');
	await taskspaceRequest.call(this, { method: 'DELETE', path: `/api/v1/medias/${seg(mediaId)}`, itemIndex: i });
	return { deleted: true, mediaId };
}
