import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as approve from './approve.operation';
import * as getMany from './getMany.operation';
import * as getManyInWorkspace from './getManyInWorkspace.operation';
import * as reject from './reject.operation';
import * as sendEvent from './sendEvent.operation';

const operations = { approve, getMany, getManyInWorkspace, reject, sendEvent };

/** Handlers of the Run resource by operation. */
export const handlers = handlersOf(operations);

/** Operation selector and parameters of the Run resource. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['run'] } },
		options: [
			{ name: 'Approve', value: 'approve', action: 'Approve a waiting run' },
			{ name: 'Get Many', value: 'getMany', action: 'Get many runs of an automation' },
			{ name: 'Get Many in Workspace', value: 'getManyInWorkspace', action: 'Get many runs of a workspace' },
			{ name: 'Reject', value: 'reject', action: 'Reject a waiting run' },
			{ name: 'Send Event', value: 'sendEvent', action: 'Send an event to a waiting run' },
		],
		default: 'getMany',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
