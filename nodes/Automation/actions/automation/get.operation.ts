import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItem, seg } from '../../../shared/transport';
import { automationIdProperty, simplifyAutomation, simplifyProperty, withoutInboundUrl } from '../shared';

const properties: INodeProperties[] = [
	automationIdProperty,
	simplifyProperty('ID, name, state, trigger type and number of actions, without the definition'),
];

export const description = showFor('automation', 'get', properties);

/** Reads one automation (`GET /automations/{id}`), without its inbound URL. */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const automationId = idParam(this, 'automationId', i, 'Automation');
	const simplify = this.getNodeParameter('simplify', i, true) as boolean;
	const automation = withoutInboundUrl(
		await requestItem.call(this, { method: 'GET', path: `/api/v1/automations/${seg(automationId)}`, itemIndex: i }),
	);
	return simplify ? simplifyAutomation(automation) : automation;
}
