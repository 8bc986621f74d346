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

/** The `trigger.*` variables an inbound call adds about the request itself, which Simplify leaves out. */
const REQUEST_VARIABLES = ['headers', 'rawBody'];

/**
 * A run's trigger variables without the request's headers and raw body (`headers`, `rawBody`, and
 * the same two inside `http`), which an inbound call adds to its run; a field of that name the
 * call's own JSON body carries stays (body fields win over the request's, see docs "Automations",
 * "Webhook bodies and variables").
 */
function variablesWithoutRequest(variables: unknown): unknown {
	if (!variables || typeof variables !== 'object' || Array.isArray(variables)) return variables;
	const out: IDataObject = { ...(variables as IDataObject) };
	const body = out.body && typeof out.body === 'object' && !Array.isArray(out.body) ? (out.body as IDataObject) : {};
	for (const name of REQUEST_VARIABLES) {
		if (!Object.prototype.hasOwnProperty.call(body, name)) delete out[name];
	}
	if (!Object.prototype.hasOwnProperty.call(body, 'http') && out.http && typeof out.http === 'object' && !Array.isArray(out.http)) {
		const http: IDataObject = { ...(out.http as IDataObject) };
		for (const name of REQUEST_VARIABLES) delete http[name];
		out.http = http;
	}
	return out;
}

/**
 * The short form of a run (Simplify): its state and times, and of its trigger only the type and
 * the variables, without the request headers and raw body of an inbound call (see
 * {@link variablesWithoutRequest}), without steps.
 */
export function simplifyRun(run: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const key of ['id', 'automationId', 'status', 'createdAt', 'startedAt', 'finishedAt', 'wakeAt', 'waitingFor', 'error']) {
		if (run[key] !== undefined) out[key] = run[key];
	}
	const trigger = run.trigger as IDataObject | undefined;
	if (trigger && typeof trigger === 'object') {
		out.trigger = { type: trigger.type, variables: variablesWithoutRequest(trigger.variables) as IDataObject };
	}
	return out;
}
