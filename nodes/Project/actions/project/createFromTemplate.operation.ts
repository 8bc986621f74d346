import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { folderLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem } from '../../../shared/transport';
import { checkText } from '../../../shared/validation';

const properties: INodeProperties[] = [
	folderLocator({ description: 'Folder to create the project in; its templates are listed below' }),
	{
		displayName: 'Template Name or ID',
		name: 'templateId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getTemplates', loadOptionsDependsOn: ['folderId.value'] },
		default: '',
		required: true,
		description:
			'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
	},
];

export const description = showFor('project', 'createFromTemplate', properties);

/** Creates a project from a template (`POST /projects/from-template`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const folderId = idParam(this, 'folderId', i, 'Folder');
	const templateId = checkText(this, i, 'Template', String(this.getNodeParameter('templateId', i) ?? ''));
	return await requestItem.call(this, {
		method: 'POST',
		path: '/api/v1/projects/from-template',
		body: { folderId, templateId },
		itemIndex: i,
	});
}
