import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { contentTypeProperty, positionOptions, projectLocator } from '../../../shared/descriptions';
import { collectionParam, idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg, taskspaceRequest } from '../../../shared/transport';
import { checkTaskContent } from '../../../shared/validation';

const properties: INodeProperties[] = [
	projectLocator(),
	{
		displayName: 'Content',
		name: 'content',
		type: 'string',
		default: '',
		required: true,
		description: 'Text of the task: one line, at most 2000 characters',
	},
	contentTypeProperty,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Placement',
				name: 'placement',
				type: 'options',
				options: positionOptions,
				default: 'afterend',
				description: 'Where to insert the task relative to the reference task',
			},
			{
				displayName: 'Reference Task ID',
				name: 'referenceTaskId',
				type: 'string',
				default: '',
				description:
					'Task the placement is relative to. Without it the task is appended at the end of the project.',
			},
		],
	},
];

export const description = showFor('task', 'create', properties);

/** Creates one task (`POST /projects/{id}/tasks/` with one entry); outputs every task returned. */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const content = checkTaskContent(this, i, this.getNodeParameter('content', i));
	const contentType = this.getNodeParameter('contentType', i) as string;
	const options = collectionParam(this, 'options', i);
	const task: IDataObject = { contentType, content };
	const reference = String(options.referenceTaskId ?? '').trim();
	if (reference) {
		task.taskId = reference;
		task.placement = (options.placement as string) || 'afterend';
	}
	const body = await taskspaceRequest.call(this, {
		method: 'POST',
		path: `/api/v1/projects/${seg(projectId)}/tasks/`,
		body: { tasks: [task] },
		itemIndex: i,
	});
	return Array.isArray(body.item) ? (body.item as IDataObject[]) : [body.item as IDataObject];
}

