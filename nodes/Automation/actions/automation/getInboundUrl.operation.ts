import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';
import { automationIdProperty } from '../shared';

const properties: INodeProperties[] = [
	{
		displayName:
			'The inbound URL starts runs like a password: it ends up in the execution data of this workflow. This operation is not available when the node is used as an AI agent tool.',
		name: 'inboundUrlNotice',
		type: 'notice',
		default: '',
	},
	automationIdProperty,
];

export const description = showFor('automation', 'getInboundUrl', properties);

/** True when the node runs as an AI agent tool (n8n names the tool variant of a node type `<type>Tool`). */
export function isToolNode(ctx: IExecuteFunctions): boolean {
	return /Tool$/.test(ctx.getNode().type);
}

/**
 * Returns an automation's inbound URL (`GET /automations/{id}`, `webhook`): `{automationId, url,
 * requiresToken, formUrl?}`. Refused when the node runs as an AI agent tool, so that the URL never
 * reaches a model.
 */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	if (isToolNode(this)) {
		throw new NodeOperationError(this.getNode(), 'Get Inbound URL is not available to AI agents', {
			itemIndex: i,
			description: 'The inbound URL works like a password. Use this operation in a regular node of the workflow; an agent can call the automation with "Call Inbound URL".',
		});
	}
	const automationId = idParam(this, 'automationId', i, 'Automation');
	const automation = await requestItem.call(this, { method: 'GET', path: `/api/v1/automations/${seg(automationId)}`, itemIndex: i });
	const webhook = automation.webhook as IDataObject | undefined;
	if (!webhook?.url) {
		throw new NodeOperationError(this.getNode(), 'This automation has no inbound URL', {
			itemIndex: i,
			description: 'Only automations with a webhook or form trigger have one, and only their workspace Owner sees it.',
		});
	}
	const out: IDataObject = { automationId, url: webhook.url, requiresToken: webhook.requiresToken === true };
	if (webhook.formUrl) out.formUrl = webhook.formUrl;
	return out;
}
