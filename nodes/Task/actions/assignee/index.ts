import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as getMany from './getMany.operation';
import * as remove from './remove.operation';
import * as set from './set.operation';

const operations = { getMany, remove, set };

/** Handlers of the Assignee resource by operation. */
export const handlers = handlersOf(operations);

/** Operation selector and parameters of the Assignee resource. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['assignee'] } },
		options: [
			{ name: 'Get Many', value: 'getMany', action: 'Get the assignees of a task' },
			{ name: 'Remove', value: 'remove', action: 'Remove an assignee from a task' },
			{ name: 'Set', value: 'set', action: 'Set the assignees of a task' },
		],
		default: 'set',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
