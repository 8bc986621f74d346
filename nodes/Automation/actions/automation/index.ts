import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as getMany from './getMany.operation';
import * as trigger from './trigger.operation';

const operations = { getMany, trigger };

/** Handlers of the Automation resource by operation. */
export const handlers = handlersOf(operations);

/** Operation selector and parameters of the Automation resource. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['automation'] } },
		options: [
			{ name: 'Call Inbound URL', value: 'trigger', action: 'Call an automation inbound url' },
			{ name: 'Get Many', value: 'getMany', action: 'Get many automations' },
		],
		default: 'getMany',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
