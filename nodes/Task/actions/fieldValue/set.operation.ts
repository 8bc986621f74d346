import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { projectLocator, taskLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { seg, taskspaceRequest } from '../../../shared/transport';
import { checkText } from '../../../shared/validation';
import { fieldProperty } from './shared';

const properties: INodeProperties[] = [
	projectLocator(),
	taskLocator(),
	fieldProperty,
	{
		displayName: 'Value Type',
		name: 'valueType',
		type: 'options',
		options: [
			{ name: 'Boolean', value: 'boolean' },
			{ name: 'Number', value: 'number' },
			{ name: 'Text', value: 'string', description: 'Text, a select choice or a date (YYYY-MM-DD)' },
		],
		default: 'string',
	},
	{
		displayName: 'Value',
		name: 'value',
		type: 'string',
		default: '',
		required: true,
		displayOptions: { show: { valueType: ['string'] } },
	},
	{
		displayName: 'Value',
		name: 'booleanValue',
		type: 'boolean',
		default: false,
		displayOptions: { show: { valueType: ['boolean'] } },
	},
	{
		displayName: 'Value',
		name: 'numberValue',
		type: 'number',
		default: 0,
		displayOptions: { show: { valueType: ['number'] } },
	},
];

export const description = showFor('fieldValue', 'set', properties);

/** Sets a task's value of a custom field (`PUT .../tasks/{taskId}/fields/{fieldId} {value}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const projectId = idParam(this, 'projectId', i, 'Project');
	const taskId = idParam(this, 'taskId', i, 'Task');
	const fieldId = idParam(this, 'fieldId', i, 'Field');
	let value: string | number | boolean;
	const valueType = this.getNodeParameter('valueType', i) as string;
	if (valueType === 'boolean') {
		value = this.getNodeParameter('booleanValue', i) === true;
	} else if (valueType === 'number') {
		value = Number(this.getNodeParameter('numberValue', i));
		if (!Number.isFinite(value)) {
			throw new NodeOperationError(this.getNode(), 'Value must be a finite number', { itemIndex: i });
		}
	} else {
		value = checkText(this, i, 'Value', String(this.getNodeParameter('value', i) ?? ''));
	}
	await taskspaceRequest.call(this, {
		method: 'PUT',
		path: `/api/v1/projects/${seg(projectId)}/tasks/${seg(taskId)}/fields/${seg(fieldId)}`,
		body: { value },
		itemIndex: i,
	});
	return { projectId, taskId, fieldId, value };
}
