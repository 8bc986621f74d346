import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { returnAllAndLimit, workspaceLocator } from '../../../shared/descriptions';
import { wantedCount } from '../../../shared/paging';
import { idParam } from '../../../shared/params';
import { showFor } from '../../../shared/router';
import { requestItems } from '../../../shared/transport';
import { simplifyAutomation, simplifyProperty, withoutInboundUrl } from '../shared';

const properties: INodeProperties[] = [
	workspaceLocator(),
	...returnAllAndLimit(),
	simplifyProperty('ID, name, state, trigger type and number of actions, without the definition'),
];

export const description = showFor('automation', 'getMany', properties);

/**
 * Lists a workspace's automations (`GET /automations?workspaceId=`, one list, no paging on the
 * service), without their inbound URLs.
 */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const workspaceId = idParam(this, 'workspaceId', i, 'Workspace');
	const wanted = wantedCount.call(this, i);
	const simplify = this.getNodeParameter('simplify', i, true) as boolean;
	const automations = await requestItems.call(this, { method: 'GET', path: '/api/v1/automations', qs: { workspaceId }, itemIndex: i });
	return automations
		.slice(0, wanted)
		.map(withoutInboundUrl)
		.map((a) => (simplify ? simplifyAutomation(a) : a));
}
