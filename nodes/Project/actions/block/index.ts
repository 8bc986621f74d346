import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as getMany from './getMany.operation';

const operations = { getMany };

/** Handlers of the Block resource by operation. */
export const handlers = handlersOf(operations);

/** Operation selector and parameters of the Block resource (top-level tasks). */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['block'] } },
		options: [{ name: 'Get Many', value: 'getMany', action: 'Get many blocks', description: 'List top-level tasks' }],
		default: 'getMany',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
