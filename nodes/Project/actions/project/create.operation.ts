import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { folderLocator, workspaceLocator } from '../../../shared/descriptions';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';
import { checkText } from '../../../shared/validation';

const properties: INodeProperties[] = [
	{
		displayName: 'Create In',
		name: 'createIn',
		type: 'options',
		options: [
			{ name: 'Folder', value: 'folder', description: 'POST /api/v1/projects with a folder' },
			{ name: 'Workspace', value: 'workspace', description: "The workspace's home folder" },
		],
		default: 'folder',
	},
	folderLocator({ displayOptions: { show: { createIn: ['folder'] } } }),
	workspaceLocator({ displayOptions: { show: { createIn: ['workspace'] } } }),
	{
		displayName: 'Content (Markdown)',
		name: 'content',
		type: 'string',
		typeOptions: { rows: 6 },
		default: '',
		required: true,
		placeholder: '# Launch plan\n- Write the brief\n  - Collect quotes\n- Book the venue',
		description:
			'The first heading becomes the project name; list items become tasks and nested lists become subtasks',
	},
];

export const description = showFor('project', 'create', properties);

/** Creates a project from markdown in a folder (`POST /projects`) or a workspace (`POST /workspaces/{id}/projects`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const createIn = this.getNodeParameter('createIn', i) as string;
	const content = checkText(this, i, 'Content', this.getNodeParameter('content', i));
	if (createIn === 'workspace') {
		const workspaceId = idParam(this, 'workspaceId', i, 'Workspace');
		return await requestItem.call(this, {
			method: 'POST',
			path: `/api/v1/workspaces/${seg(workspaceId)}/projects`,
			body: { contentType: 'text/markdown', content },
			itemIndex: i,
		});
	}
	const folderId = idParam(this, 'folderId', i, 'Folder');
	return await requestItem.call(this, {
		method: 'POST',
		path: '/api/v1/projects',
		body: { folderId, contentType: 'text/markdown', content },
		itemIndex: i,
	});
}
