import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, credentialDescriptions } from '../shared/descriptions';
import { searchProjects, searchTasks } from '../shared/listSearch';
import { getFields, getMembers } from '../shared/loadOptions';
import { executeOperations, type OperationRegistry } from '../shared/router';
import * as assignee from './actions/assignee';
import * as comment from './actions/comment';
import * as date from './actions/date';
import * as fieldValue from './actions/fieldValue';
import * as note from './actions/note';
import * as task from './actions/task';

const registry: OperationRegistry = {
	assignee: assignee.handlers,
	comment: comment.handlers,
	date: date.handlers,
	fieldValue: fieldValue.handlers,
	note: note.handlers,
	task: task.handlers,
};

/** Taskspace tasks and their add-ons: assignees, dates, notes, custom field values, comments. */
export class TaskspaceTask implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Taskspace Task',
		name: 'taskspaceTask',
		icon: { light: 'file:../../icons/taskspace.svg', dark: 'file:../../icons/taskspace.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Create, update, move and complete Taskspace tasks and manage their assignees, dates and notes',
		defaults: { name: 'Taskspace Task' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialDescriptions,
		properties: [
			authenticationProperty,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Assignee', value: 'assignee' },
					{ name: 'Comment', value: 'comment' },
					{ name: 'Custom Field Value', value: 'fieldValue' },
					{ name: 'Date', value: 'date', description: 'Start and due date of a task' },
					{ name: 'Note', value: 'note' },
					{ name: 'Task', value: 'task' },
				],
				default: 'task',
			},
			...task.description,
			...assignee.description,
			...comment.description,
			...date.description,
			...fieldValue.description,
			...note.description,
		],
	};

	methods = {
		listSearch: { searchProjects, searchTasks },
		loadOptions: { getFields, getMembers },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperations.call(this, registry);
	}
}
