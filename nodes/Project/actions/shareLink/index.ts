import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as disable from './disable.operation';
import * as enable from './enable.operation';
import * as get from './get.operation';

const operations = { disable, enable, get };

/** Handlers of the Share Link resource by operation. */
export const handlers = handlersOf(operations);

/** Operation selector and parameters of the Share Link resource. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['shareLink'] } },
		options: [
			{ name: 'Disable', value: 'disable', action: 'Disable a share link', description: 'Revoke the share URLs' },
			{ name: 'Enable', value: 'enable', action: 'Enable a share link' },
			{ name: 'Get', value: 'get', action: 'Get a share link' },
		],
		default: 'get',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
