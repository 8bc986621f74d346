import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, credentialDescriptions } from '../shared/descriptions';
import { searchAutomations, searchRuns, searchWorkspaces } from '../shared/listSearch';
import { executeOperations, type OperationRegistry } from '../shared/router';
import * as approval from './actions/approval';
import * as automation from './actions/automation';
import * as run from './actions/run';

const registry: OperationRegistry = { approval: approval.handlers, automation: automation.handlers, run: run.handlers };

/** Taskspace automations: read them, call one's inbound URL, list runs and waiting approvals, approve or reject. */
export class TaskspaceAutomation implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Taskspace Automation',
		name: 'taskspaceAutomation',
		icon: { light: 'file:../../icons/taskspace.svg', dark: 'file:../../icons/taskspace.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Drive the automations of Taskspace: call, list runs, approve or reject',
		defaults: { name: 'Taskspace Automation' },
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
					{ name: 'Approval', value: 'approval' },
					{ name: 'Automation', value: 'automation' },
					{ name: 'Run', value: 'run' },
				],
				default: 'automation',
			},
			...approval.description,
			...automation.description,
			...run.description,
		],
	};

	methods = {
		listSearch: { searchAutomations, searchRuns, searchWorkspaces },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperations.call(this, registry);
	}
}
