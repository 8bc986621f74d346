import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { folderLocator } from '../../../shared/descriptions';
import { multipartFile } from '../../../shared/multipart';
import { collectionParam, idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';

const properties: INodeProperties[] = [
	folderLocator(),
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the input binary field containing the file to upload',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				description: "Name to store the file under (defaults to the binary data's file name)",
			},
		],
	},
];

export const description = showFor('media', 'upload', properties);

/** Uploads an input item's binary data to a folder (`POST /folders/{id}/medias`, multipart field `file`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const folderId = idParam(this, 'folderId', i, 'Folder');
	const binaryPropertyName = this.getNodeParameter('binaryPropertyName', i) as string;
	const binary = this.helpers.assertBinaryData(i, binaryPropertyName);
	const data = await this.helpers.getBinaryDataBuffer(i, binaryPropertyName);
	const options = collectionParam(this, 'options', i);
	const fileName = String(options.fileName || binary.fileName || 'file');
	const mimeType = binary.mimeType || 'application/octet-stream';
	const multipart = multipartFile('file', fileName, mimeType, data);
	return await requestItem.call(this, {
		method: 'POST',
		path: `/api/v1/folders/${seg(folderId)}/medias`,
		body: multipart.body,
		headers: { 'content-type': multipart.contentType },
		itemIndex: i,
	});
}
