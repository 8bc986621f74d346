import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as generate from './generate.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as runCommand from './runCommand.operation';
import * as update from './update.operation';

const operations = { create, delete: del, generate, get, getMany, runCommand, update };

/** Handlers of the Agent resource by operation. */
export const handlers = handlersOf(operations);

/** Operation selector and parameters of the Agent resource. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['agent'] } },
		options: [
			{ name: 'Create', value: 'create', action: 'Create an agent' },
			{ name: 'Delete', value: 'delete', action: 'Delete an agent' },
			{ name: 'Generate', value: 'generate', action: 'Generate an agent from a prompt' },
			{ name: 'Get', value: 'get', action: 'Get an agent' },
			{ name: 'Get Many', value: 'getMany', action: 'Get many agents' },
			{ name: 'Run Command', value: 'runCommand', action: 'Run an agent command' },
			{ name: 'Update', value: 'update', action: 'Update an agent' },
		],
		default: 'runCommand',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
