import type { INodeProperties } from 'n8n-workflow';

/** The custom field picker (project fields, loaded from the selected project). */
export const fieldProperty: INodeProperties = {
	displayName: 'Field Name or ID',
	name: 'fieldId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getFields', loadOptionsDependsOn: ['projectId.value'] },
	default: '',
	required: true,
	description:
		'Custom field of the project. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};
