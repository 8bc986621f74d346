import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, credentialDescriptions } from '../shared/descriptions';
import { searchFolders, searchProjects, searchWorkspaces } from '../shared/listSearch';
import { getTemplates } from '../shared/loadOptions';
import { executeOperations, type OperationRegistry } from '../shared/router';
import * as block from './actions/block';
import * as field from './actions/field';
import * as folder from './actions/folder';
import * as member from './actions/member';
import * as project from './actions/project';
import * as shareLink from './actions/shareLink';
import * as template from './actions/template';
import * as workspace from './actions/workspace';

const registry: OperationRegistry = {
	block: block.handlers,
	field: field.handlers,
	folder: folder.handlers,
	member: member.handlers,
	project: project.handlers,
	shareLink: shareLink.handlers,
	template: template.handlers,
	workspace: workspace.handlers,
};

/** Taskspace projects and what surrounds them: workspaces, folders, members, fields, share links, blocks. */
export class TaskspaceProject implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Taskspace Project',
		name: 'taskspaceProject',
		icon: { light: 'file:../../icons/taskspace.svg', dark: 'file:../../icons/taskspace.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Create, copy, complete and inspect Taskspace projects, folders and workspaces',
		defaults: { name: 'Taskspace Project' },
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
					{ name: 'Block', value: 'block', description: 'Top-level tasks of a project' },
					{ name: 'Field', value: 'field', description: 'Custom field definitions of a project' },
					{ name: 'Folder', value: 'folder' },
					{ name: 'Member', value: 'member', description: 'People who can access a project' },
					{ name: 'Project', value: 'project' },
					{ name: 'Share Link', value: 'shareLink' },
					{ name: 'Template', value: 'template', description: 'Project templates of a folder' },
					{ name: 'Workspace', value: 'workspace' },
				],
				default: 'project',
			},
			...project.description,
			...block.description,
			...field.description,
			...folder.description,
			...member.description,
			...shareLink.description,
			...template.description,
			...workspace.description,
		],
	};

	methods = {
		listSearch: { searchFolders, searchProjects, searchWorkspaces },
		loadOptions: { getTemplates },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperations.call(this, registry);
	}
}
