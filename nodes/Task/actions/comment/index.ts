import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as create from './create.operation';
import * as getMany from './getMany.operation';

const operations = { create, getMany };

/** Handlers of the Comment resource by operation. */
export const handlers = handlersOf(operations);

/** Operation selector and parameters of the Comment resource. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['comment'] } },
		options: [
			{ name: 'Create', value: 'create', action: 'Create a comment on a task' },
			{ name: 'Get Many', value: 'getMany', action: 'Get many comments of a task' },
		],
		default: 'create',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
