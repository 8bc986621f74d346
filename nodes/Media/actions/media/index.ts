import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as del from './delete.operation';
import * as download from './download.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as upload from './upload.operation';

const operations = { delete: del, download, get, getMany, upload };

/** Handlers of the Media resource by operation. */
export const handlers = handlersOf(operations);

/** Operation selector and parameters of the Media resource. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['media'] } },
		options: [
			{ name: 'Delete', value: 'delete', action: 'Delete a media item' },
			{ name: 'Download', value: 'download', action: 'Download a media item' },
			{ name: 'Get', value: 'get', action: 'Get a media item' },
			{ name: 'Get Many', value: 'getMany', action: 'Get many media items' },
			{ name: 'Upload', value: 'upload', action: 'Upload a media item' },
		],
		default: 'upload',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
