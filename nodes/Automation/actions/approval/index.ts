import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as getMany from './getMany.operation';

const operations = { getMany };

/** Handlers of the Approval resource by operation. */
export const handlers = handlersOf(operations);

/** Operation selector and parameters of the Approval resource. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['approval'] } },
		options: [{ name: 'Get Many', value: 'getMany', action: 'Get many waiting approvals' }],
		default: 'getMany',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
