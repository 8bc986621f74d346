import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as set from './set.operation';

const operations = { delete: del, get, set };

/** Handlers of the Custom Field Value resource by operation. */
export const handlers = handlersOf(operations);

/** Operation selector and parameters of the Custom Field Value resource. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['fieldValue'] } },
		options: [
			{ name: 'Delete', value: 'delete', action: 'Delete a custom field value of a task' },
			{ name: 'Get', value: 'get', action: 'Get a custom field value of a task' },
			{ name: 'Set', value: 'set', action: 'Set a custom field value of a task' },
		],
		default: 'set',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
