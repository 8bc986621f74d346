import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, credentialDescriptions } from '../shared/descriptions';
import { searchFolders, searchMedia } from '../shared/listSearch';
import { executeOperations, type OperationRegistry } from '../shared/router';
import * as media from './actions/media';

const registry: OperationRegistry = { media: media.handlers };

/** Taskspace media: upload files from binary data, download, list, read and delete them. */
export class TaskspaceMedia implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Taskspace Media',
		name: 'taskspaceMedia',
		icon: { light: 'file:../../icons/taskspace.svg', dark: 'file:../../icons/taskspace.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Upload, download, list and delete files in Taskspace folders',
		defaults: { name: 'Taskspace Media' },
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
				options: [{ name: 'Media', value: 'media' }],
				default: 'media',
			},
			...media.description,
		],
	};

	methods = {
		listSearch: { searchFolders, searchMedia },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperations.call(this, registry);
	}
}
