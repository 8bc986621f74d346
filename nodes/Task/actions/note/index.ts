import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as set from './set.operation';

const operations = { delete: del, get, set };

/** Handlers of the Note resource by operation. */
export const handlers = handlersOf(operations);

/** Operation selector and parameters of the Note resource. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['note'] } },
		options: [
			{ name: 'Delete', value: 'delete', action: 'Delete the note of a task' },
			{ name: 'Get', value: 'get', action: 'Get the note of a task' },
			{ name: 'Set', value: 'set', action: 'Set the note of a task' },
		],
		default: 'set',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
