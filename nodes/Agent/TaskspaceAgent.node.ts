import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, credentialDescriptions } from '../shared/descriptions';
import { searchAgents, searchConversations, searchFolders, searchMedia, searchProjects } from '../shared/listSearch';
import { executeOperations, type OperationRegistry } from '../shared/router';
import * as agent from './actions/agent';
import * as conversation from './actions/conversation';
import * as knowledge from './actions/knowledge';
import * as publicAccess from './actions/publicAccess';

const registry: OperationRegistry = {
	agent: agent.handlers,
	conversation: conversation.handlers,
	knowledge: knowledge.handlers,
	publicAccess: publicAccess.handlers,
};

/** Taskspace agents: create or generate them, run their commands, manage knowledge and public access. */
export class TaskspaceAgent implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Taskspace Agent',
		name: 'taskspaceAgent',
		icon: { light: 'file:../../icons/taskspace.svg', dark: 'file:../../icons/taskspace.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Create, generate and run Taskspace agents and manage their knowledge and public access',
		defaults: { name: 'Taskspace Agent' },
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
					{ name: 'Agent', value: 'agent' },
					{ name: 'Conversation', value: 'conversation' },
					{ name: 'Knowledge', value: 'knowledge', description: 'Projects and media an agent knows' },
					{ name: 'Public Access', value: 'publicAccess' },
				],
				default: 'agent',
			},
			...agent.description,
			...conversation.description,
			...knowledge.description,
			...publicAccess.description,
		],
	};

	methods = {
		listSearch: { searchAgents, searchConversations, searchFolders, searchMedia, searchProjects },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperations.call(this, registry);
	}
}
