import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as add from './add.operation';
import * as remove from './remove.operation';

const operations = { add, remove };

/** Handlers of the Knowledge resource by operation. */
export const handlers = handlersOf(operations);

/** Operation selector and parameters of the Knowledge resource. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['knowledge'] } },
		options: [
			{ name: 'Add', value: 'add', action: 'Add knowledge to an agent' },
			{ name: 'Remove', value: 'remove', action: 'Remove knowledge from an agent' },
		],
		default: 'add',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
