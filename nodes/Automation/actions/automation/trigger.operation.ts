import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { idParam, jsonParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg, taskspaceRequest } from '../../../shared/transport';
import { automationIdProperty } from '../shared';

const properties: INodeProperties[] = [
	automationIdProperty,
	{
		displayName: 'Body (JSON)',
		name: 'body',
		type: 'json',
		default: '{}',
		description: 'JSON sent to the automation\'s inbound URL; its fields become the run\'s trigger variables',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Idempotency Key',
				name: 'idempotencyKey',
				type: 'string',
				default: '',
				description: 'Calls with the same key start one run',
			},
		],
	},
];

export const description = showFor('automation', 'trigger', properties);

/**
 * Calls a webhook-triggered automation's inbound URL with a JSON body (`POST /webhooks/<id>`),
 * answering `{ok, requestId}`: the run starts right after (list it with Run → Get Many). The
 * automation is read with the credential (only its Owner sees the URL); the call itself carries no
 * `Authorization` header.
 */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const automationId = idParam(this, 'automationId', i, 'Automation');
	const automation = await requestItem.call(this, { method: 'GET', path: `/api/v1/automations/${seg(automationId)}`, itemIndex: i });
	const webhook = automation.webhook as { url?: string } | undefined;
	if (!webhook?.url) {
		throw new NodeOperationError(this.getNode(), 'This automation has no inbound URL', {
			itemIndex: i,
			description:
				'Only automations with a webhook trigger can be called, and only their workspace Owner sees the URL. An inbound URL that requires its own token is called with the HTTP Request node.',
		});
	}
	const body = jsonParam(this, 'body', i, 'Body (JSON)');
	const options = this.getNodeParameter('options', i, {}) as { idempotencyKey?: string };
	// The call goes to the service the credential points at, whatever public address the URL names,
	// without the credential: the inbound URL needs none, and a run records the headers it got.
	const answer = await taskspaceRequest.call(this, {
		method: 'POST',
		path: new URL(webhook.url).pathname,
		anonymous: true,
		body: body as IDataObject,
		headers: options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {},
		itemIndex: i,
	});
	return { automationId, ...answer };
}
