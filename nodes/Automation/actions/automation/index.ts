import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as get from './get.operation';
import * as getInboundUrl from './getInboundUrl.operation';
import * as getMany from './getMany.operation';
import * as trigger from './trigger.operation';

const operations = { get, getInboundUrl, getMany, trigger };

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
			{ name: 'Get', value: 'get', action: 'Get an automation' },
			{
				name: 'Get Inbound URL',
				value: 'getInboundUrl',
				action: 'Get an automation inbound url',
				description: 'Not available to AI agents: the URL works like a password',
				// Hidden from the node's AI-tool variant (its type name ends with "Tool"); refused there at run time too.
				displayOptions: { hide: { '@tool': [true] } },
			},
			{ name: 'Get Many', value: 'getMany', action: 'Get many automations' },
		],
		default: 'getMany',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
