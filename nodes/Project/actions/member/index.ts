import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as add from './add.operation';
import * as getMany from './getMany.operation';

const operations = { add, getMany };

/** Handlers of the Member resource by operation. */
export const handlers = handlersOf(operations);

/** Operation selector and parameters of the Member resource. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['member'] } },
		options: [
			{ name: 'Add', value: 'add', action: 'Add members to a project' },
			{ name: 'Get Many', value: 'getMany', action: 'Get many project members' },
		],
		default: 'getMany',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
