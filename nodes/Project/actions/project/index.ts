import type { INodeProperties } from 'n8n-workflow';

import { handlersOf } from '../../../shared/router';
import * as complete from './complete.operation';
import * as copy from './copy.operation';
import * as create from './create.operation';
import * as createFromTemplate from './createFromTemplate.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as restore from './restore.operation';

const operations = { complete, copy, create, createFromTemplate, delete: del, get, getMany, restore };

/** Handlers of the Project resource by operation. */
export const handlers = handlersOf(operations);

/** Operation selector and parameters of the Project resource. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['project'] } },
		options: [
			{ name: 'Complete', value: 'complete', action: 'Complete a project', description: 'Mark a project completed' },
			{ name: 'Copy', value: 'copy', action: 'Copy a project', description: 'Duplicate a project with all its tasks' },
			{ name: 'Create', value: 'create', action: 'Create a project', description: 'Create a project from markdown' },
			{
				name: 'Create From Template',
				value: 'createFromTemplate',
				action: 'Create a project from a template',
			},
			{ name: 'Delete', value: 'delete', action: 'Delete a project', description: 'Delete a project with all its tasks' },
			{ name: 'Get', value: 'get', action: 'Get a project' },
			{ name: 'Get Many', value: 'getMany', action: 'Get many projects', description: 'List the projects of a folder, or mine' },
			{ name: 'Restore', value: 'restore', action: 'Restore a project', description: 'Reopen a completed project' },
		],
		default: 'create',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
