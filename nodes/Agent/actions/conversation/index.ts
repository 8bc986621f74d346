import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as get from './get.operation';
import * as getMany from './getMany.operation';

const operations = { get, getMany };

/** Handlers of the Conversation resource by operation. */
export const handlers = handlersOf(operations);

/** Operation selector and parameters of the Conversation resource. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['conversation'] } },
		options: [
			{ name: 'Get', value: 'get', action: 'Get a conversation' },
			{ name: 'Get Many', value: 'getMany', action: 'Get many conversations' },
		],
		default: 'getMany',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
