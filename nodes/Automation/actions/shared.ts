import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { automationLocator } from '../../shared/descriptions';

/** The automation an operation works on: from the list (of the workspace picked, or of all), by URL or by ID. */
export const automationIdProperty: INodeProperties = automationLocator({
	description: 'The automation (the list shows those of your workspaces)',
});

/** "Simplify", for operations whose items carry whole definitions or run steps. */
export function simplifyProperty(what: string): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: `Whether to return a simplified version of the response instead of the raw data (${what})`,
	};
}

/**
 * An automation as Get and Get Many output it: without its inbound URL. The `webhook` object of
 * an automation read by its Owner holds the inbound URL (and, right after creation, its token),
 * which start runs like a password; only "Get Inbound URL" returns them. What stays is whether the
 * automation has one and whether it requires its own token.
 */
export function withoutInboundUrl(automation: IDataObject): IDataObject {
	const { webhook, ...rest } = automation;
	if (webhook && typeof webhook === 'object') {
		return { ...rest, inboundUrl: { present: true, requiresToken: (webhook as IDataObject).requiresToken === true } };
	}
	return rest;
}

/** The short form of an automation (Simplify): what identifies it and its state, without its definition. */
export function simplifyAutomation(automation: IDataObject): IDataObject {
	const trigger = (automation.trigger ?? {}) as IDataObject;
	const out: IDataObject = {
		id: automation.id,
		workspaceId: automation.workspaceId,
		name: automation.name,
		enabled: automation.enabled,
		version: automation.version,
		triggerType: trigger.type,
		actionCount: Array.isArray(automation.actions) ? automation.actions.length : undefined,
		updatedAt: automation.updatedAt,
	};
	if (automation.description) out.description = automation.description;
	if (automation.inboundUrl) out.inboundUrl = automation.inboundUrl;
	return out;
}

/**
 * The short form of a run (Simplify): its state and times, and of its trigger only the type and
 * the variables (not the request headers of an inbound call), without steps.
 */
export function simplifyRun(run: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const key of ['id', 'automationId', 'status', 'createdAt', 'startedAt', 'finishedAt', 'wakeAt', 'waitingFor', 'error']) {
		if (run[key] !== undefined) out[key] = run[key];
	}
	const trigger = run.trigger as IDataObject | undefined;
	if (trigger && typeof trigger === 'object') out.trigger = { type: trigger.type, variables: trigger.variables };
	return out;
}
