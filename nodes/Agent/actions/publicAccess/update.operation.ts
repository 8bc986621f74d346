import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { agentLocator } from '../../../shared/descriptions';
import { collectionParam, idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';

const properties: INodeProperties[] = [
	agentLocator(),
	{
		displayName: 'Preferences',
		name: 'preferences',
		type: 'collection',
		placeholder: 'Add Preference',
		default: {},
		options: [
			{
				displayName: 'Can Copy Knowledge',
				name: 'canCopyKnowledge',
				type: 'boolean',
				default: false,
				description: "Whether visitors may copy the agent's knowledge",
			},
			{
				displayName: 'Hide Branding',
				name: 'hideBranding',
				type: 'boolean',
				default: false,
				description: 'Whether to hide the Taskspace branding on the public page',
			},
			{
				displayName: 'Mode',
				name: 'mode',
				type: 'options',
				options: [
					{ name: 'Chatbot', value: 'chatbot' },
					{ name: 'Template', value: 'template' },
				],
				default: 'template',
			},
			{
				displayName: 'Theme',
				name: 'theme',
				type: 'options',
				options: [
					{ name: 'Auto (Follow the Visitor)', value: 'auto' },
					{ name: 'Dark', value: 'dark' },
					{ name: 'Light', value: 'light' },
				],
				default: 'light',
			},
		],
	},
];

export const description = showFor('publicAccess', 'update', properties);

/** Updates the public agent's preferences (`PATCH /agents/{id}/public-agent {preferences}`). */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const agentId = idParam(this, 'agentId', i, 'Agent');
	const preferences = collectionParam(this, 'preferences', i);
	if (Object.keys(preferences).length === 0) {
		throw new NodeOperationError(this.getNode(), 'Set at least one preference', { itemIndex: i });
	}
	return await requestItem.call(this, {
		method: 'PATCH',
		path: `/api/v1/agents/${seg(agentId)}/public-agent`,
		body: { preferences },
		itemIndex: i,
	});
}
