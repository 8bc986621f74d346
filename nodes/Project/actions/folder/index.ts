import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as create from './create.operation';
import * as getMany from './getMany.operation';

const operations = { create, getMany };

/** Handlers of the Folder resource by operation. */
export const handlers = handlersOf(operations);

/** Operation selector and parameters of the Folder resource. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['folder'] } },
		options: [
			{ name: 'Create', value: 'create', action: 'Create a folder' },
			{ name: 'Get Many', value: 'getMany', action: 'Get many folders' },
		],
		default: 'getMany',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
