import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as create from './create.operation';
import * as getMany from './getMany.operation';

const operations = { create, getMany };

/** Handlers of the Field resource by operation. */
export const handlers = handlersOf(operations);

/** Operation selector and parameters of the Field resource. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['field'] } },
		options: [
			{ name: 'Create', value: 'create', action: 'Create a custom field' },
			{ name: 'Get Many', value: 'getMany', action: 'Get many custom fields' },
		],
		default: 'getMany',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
