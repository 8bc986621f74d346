import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as disable from './disable.operation';
import * as enable from './enable.operation';
import * as get from './get.operation';
import * as update from './update.operation';

const operations = { disable, enable, get, update };

/** Handlers of the Public Access resource by operation. */
export const handlers = handlersOf(operations);

/** Operation selector and parameters of the Public Access resource. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['publicAccess'] } },
		options: [
			{ name: 'Disable', value: 'disable', action: 'Disable public access to an agent' },
			{ name: 'Enable', value: 'enable', action: 'Enable public access to an agent' },
			{ name: 'Get', value: 'get', action: 'Get the public agent' },
			{ name: 'Update', value: 'update', action: 'Update the public agent preferences' },
		],
		default: 'enable',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
