import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as complete from './complete.operation';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as move from './move.operation';
import * as uncomplete from './uncomplete.operation';
import * as update from './update.operation';

const operations = { complete, create, delete: del, get, getMany, move, uncomplete, update };

/** Handlers of the Task resource by operation. */
export const handlers = handlersOf(operations);

/** Operation selector and parameters of the Task resource. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['task'] } },
		options: [
			{ name: 'Complete', value: 'complete', action: 'Complete a task' },
			{ name: 'Create', value: 'create', action: 'Create a task' },
			{ name: 'Delete', value: 'delete', action: 'Delete a task' },
			{ name: 'Get', value: 'get', action: 'Get a task' },
			{ name: 'Get Many', value: 'getMany', action: 'Get many tasks' },
			{ name: 'Move', value: 'move', action: 'Move a task' },
			{ name: 'Uncomplete', value: 'uncomplete', action: 'Uncomplete a task' },
			{ name: 'Update', value: 'update', action: 'Update a task' },
		],
		default: 'create',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
