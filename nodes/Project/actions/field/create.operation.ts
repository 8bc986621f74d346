import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';
import { checkText } from '../../../shared/validation';

const properties: INodeProperties[] = [
	projectLocator(),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		description: 'Display name of the field',
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		options: [
			{ name: 'Boolean', value: 'boolean' },
			{ name: 'Date', value: 'date' },
			{ name: 'Number', value: 'number' },
			{ name: 'Select', value: 'select' },
			{ name: 'Text', value: 'text' },
		],
		default: 'text',
	},
	{
		displayName: 'Choices',
		name: 'choices',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. low, medium, high',
		description: 'Comma-separated values a select field offers',
		displayOptions: { show: { type: ['select'] } },
	},
];

export const description = showFor('field', 'create', properties);

/** Defines a custom field on a project (`POST /projects/{id}/fields {name, type, options?}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const name = checkText(this, i, 'Name', this.getNodeParameter('name', i), { singleLine: true });
	const type = this.getNodeParameter('type', i) as string;
	const body: IDataObject = { name, type };
	if (type === 'select') {
		const choices = String(this.getNodeParameter('choices', i) ?? '')
			.split(',')
			.map((c) => c.trim())
			.filter(Boolean);
		checkText(this, i, 'Choices', choices.join(','));
		body.options = choices;
	}
	return await requestItem.call(this, {
		method: 'POST',
		path: `/api/v1/projects/${seg(projectId)}/fields`,
		body,
		itemIndex: i,
	});
}
