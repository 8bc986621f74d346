import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, credentialDescriptions } from '../shared/descriptions';
import { getWorkspaces } from '../shared/loadOptions';
import { requestItem, seg, taskspaceRequest } from '../shared/transport';
import { DEFAULT_MAX_AGE_SECONDS, SIGNATURE_HEADER, deliveryAgeProblem, verifySignature } from './signature';

/** What the trigger keeps in the workflow's static data about its registration. */
interface RegistrationData extends IDataObject {
	webhookId?: string;
	secret?: string;
	events?: string[];
	spaceIds?: string[];
}

/** Events a signed webhook can carry (spec section 6.1, plus the service's approval requests and failure alerts). */
const EVENTS = [
	{ name: 'Approval Requested', value: 'approval.requested', description: 'A run of an automation waits for an approval (with a decision link)' },
	{ name: 'Automation Run Failed', value: 'automation.failed', description: 'A run of an automation in the service fails' },
	{ name: 'Comment Created', value: 'comment.created', description: 'A comment is added to a task' },
	{ name: 'Project Assigned', value: 'project.assigned', description: 'A project is assigned to someone' },
	{ name: 'Project Created', value: 'project.created', description: 'A project is created' },
	{ name: 'Project Joined', value: 'project.joined', description: 'Someone joins a project' },
	{ name: 'Task Assigned', value: 'task.assigned', description: 'A task is assigned to someone' },
	{ name: 'Task Due', value: 'task.due', description: "A task's due date arrives" },
];

/** Sorted copy, for comparing sets of strings. */
function sorted(values: unknown): string[] {
	return Array.isArray(values) ? values.map(String).sort() : [];
}

function sameSet(a: unknown, b: unknown): boolean {
	return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

/** The events and workspaces the node is configured for. */
function wanted(ctx: IHookFunctions): { events: string[]; spaceIds: string[] } {
	return {
		events: sorted(ctx.getNodeParameter('events', [])),
		spaceIds: sorted(ctx.getNodeParameter('workspaceIds', [])),
	};
}

/** HTTP status of an error thrown by the transport, or undefined. */
function statusOf(error: unknown): string | undefined {
	return error instanceof NodeApiError && error.httpCode ? String(error.httpCode) : undefined;
}

/** Starts a workflow for each signed Taskspace event (signed webhook registration, spec section 4.6). */
export class TaskspaceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Taskspace Trigger',
		name: 'taskspaceTrigger',
		icon: { light: 'file:../../icons/taskspace.svg', dark: 'file:../../icons/taskspace.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description: 'Starts the workflow when Taskspace events happen (signed webhooks)',
		defaults: { name: 'Taskspace Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialDescriptions,
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					'Signed webhooks need a Pro plan or above on a verified Taskspace account; otherwise activation fails with "Payment required" (HTTP 402). Taskspace only delivers to https URLs unless the service runs with TASKSPACE_WEBHOOKS_ALLOW_INSECURE=1.',
				name: 'planNotice',
				type: 'notice',
				default: '',
			},
			authenticationProperty,
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: EVENTS,
				default: [],
				required: true,
				description: 'Events to listen to',
			},
			{
				displayName: 'Workspace Names or IDs',
				name: 'workspaceIds',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getWorkspaces' },
				default: [],
				description:
					'Workspaces to listen to; leave empty for every workspace of the account. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Include Event Metadata',
						name: 'includeMetadata',
						type: 'boolean',
						default: false,
						description:
							'Whether to add the event name ("event"), the delivery ID ("deliveryId"), the event ID, workspace ID and timestamp to the output',
					},
					{
						displayName: 'Max Delivery Age (Seconds)',
						name: 'maxAgeSeconds',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: DEFAULT_MAX_AGE_SECONDS,
						description:
							"Deliveries whose signed timestamp is further than this from now are refused (401), so a captured delivery cannot be replayed later. Taskspace retries a delivery with the event's timestamp: raise it to accept retries after an outage longer than this. 0 accepts any age.",
					},
				],
			},
		],
	};

	methods = {
		loadOptions: { getWorkspaces },
	};

	webhookMethods = {
		default: {
			/**
			 * True when this URL is registered with the configured events and workspaces and the
			 * secret is known; false (so n8n calls `create`) when it is missing or differs.
			 */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const data = this.getWorkflowStaticData('node') as RegistrationData;
				const webhookUrl = this.getNodeWebhookUrl('default') as string;
				if (!data.webhookId || !data.secret) return false;
				if (data.webhookId !== webhookUrl) return false;
				const want = wanted(this);
				if (!sameSet(data.events, want.events) || !sameSet(data.spaceIds, want.spaceIds)) return false;
				let registration: IDataObject;
				try {
					registration = await requestItem.call(this, {
						method: 'GET',
						path: `/api/v2/webhooks/${seg(data.webhookId)}`,
					});
				} catch (error) {
					if (statusOf(error) === '404') {
						this.logger.debug('Taskspace webhook registration not found; it will be created', {
							webhookId: data.webhookId,
						});
						delete data.webhookId;
						delete data.secret;
						return false;
					}
					throw new NodeApiError(this.getNode(), error as JsonObject);
				}
				return sameSet(registration.events, want.events) && sameSet(registration.spaceIds, want.spaceIds);
			},

			/** Registers (or re-registers) this URL; keeps the returned secret in static data. */
			async create(this: IHookFunctions): Promise<boolean> {
				const data = this.getWorkflowStaticData('node') as RegistrationData;
				const webhookUrl = this.getNodeWebhookUrl('default') as string;
				const want = wanted(this);
				if (want.events.length === 0) {
					throw new NodeApiError(this.getNode(), { message: 'No events selected' } as JsonObject, {
						message: 'Select at least one event to listen to',
					});
				}
				if (data.webhookId && data.webhookId !== webhookUrl) {
					await taskspaceRequest
						.call(this, { method: 'DELETE', path: `/api/v2/webhooks/${seg(data.webhookId)}` })
						.catch((error: unknown) => {
							this.logger.warn('Could not delete the previous Taskspace webhook registration', {
								webhookId: data.webhookId,
								error: (error as Error).message,
							});
						});
				}
				let body: IDataObject;
				try {
					body = await taskspaceRequest.call(this, {
						method: 'POST',
						path: '/api/v2/webhooks',
						body: { targetUrl: webhookUrl, events: want.events, spaceIds: want.spaceIds },
					});
				} catch (error) {
					if (statusOf(error) === '402') {
						throw new NodeApiError(this.getNode(), error as JsonObject, {
							message: 'Taskspace refused the webhook: signed webhooks need a Pro plan or above',
							description:
								'The account behind these credentials must be on the Pro, Business or Enterprise plan and verified (HTTP 402 PAYMENT_REQUIRED). Upgrade the account, or use credentials of an account that qualifies.',
							httpCode: '402',
						});
					}
					throw new NodeApiError(this.getNode(), error as JsonObject);
				}
				const webhook = (body.webhook ?? {}) as IDataObject;
				data.webhookId = String(webhook.id ?? webhookUrl);
				data.secret = String(body.secret ?? '');
				data.events = sorted(webhook.events ?? want.events);
				data.spaceIds = sorted(webhook.spaceIds ?? want.spaceIds);
				return true;
			},

			/** Deletes the registration (a registration already gone counts as deleted). */
			async delete(this: IHookFunctions): Promise<boolean> {
				const data = this.getWorkflowStaticData('node') as RegistrationData;
				if (!data.webhookId) return true;
				try {
					await taskspaceRequest.call(this, {
						method: 'DELETE',
						path: `/api/v2/webhooks/${seg(data.webhookId)}`,
					});
				} catch (error) {
					if (statusOf(error) !== '404') throw new NodeApiError(this.getNode(), error as JsonObject);
					this.logger.debug('Taskspace webhook registration was already gone', { webhookId: data.webhookId });
				}
				delete data.webhookId;
				delete data.secret;
				delete data.events;
				delete data.spaceIds;
				return true;
			},
		},
	};

	/**
	 * Receives a delivery: verifies `X-Service-Signature` over the raw body, then that the body's
	 * signed `timestamp` is within the "Max Delivery Age" of now (default 5 minutes; see
	 * `deliveryAgeProblem`). A missing or wrong signature, or a delivery outside the window, is
	 * answered 401 and starts no execution; otherwise the event's payload is output.
	 */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const data = this.getWorkflowStaticData('node') as RegistrationData;
		const request = this.getRequestObject();
		const headers = this.getHeaderData() as IDataObject;
		const rawBody = (request as unknown as { rawBody?: Buffer }).rawBody;
		const refuse = (code: string, message: string): IWebhookResponseData => {
			this.getResponseObject().status(401).json({ ok: false, error: { code, message } });
			return { noWebhookResponse: true };
		};
		if (!rawBody || !data.secret || !verifySignature(rawBody, headers[SIGNATURE_HEADER], data.secret)) {
			return refuse('INVALID_SIGNATURE', 'Invalid signature');
		}
		// What was signed: the raw bytes, not n8n's parse of them.
		let delivery: IDataObject;
		try {
			const parsed: unknown = JSON.parse(rawBody.toString('utf8'));
			delivery = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as IDataObject) : {};
		} catch {
			return refuse('INVALID_SIGNATURE', 'The signed body is not JSON');
		}
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const maxAge = options.maxAgeSeconds === undefined ? DEFAULT_MAX_AGE_SECONDS : Number(options.maxAgeSeconds);
		const stale = deliveryAgeProblem(delivery.timestamp, Date.now(), maxAge);
		if (stale) return refuse('STALE_DELIVERY', `Delivery refused: ${stale}`);
		const event = String(delivery.type ?? headers['x-service-event'] ?? '');
		const subscribed = sorted(this.getNodeParameter('events', []));
		if (event && !subscribed.includes(event)) {
			return { webhookResponse: { ok: true, ignored: event } };
		}
		const payload = (delivery.payload ?? {}) as IDataObject;
		const json: IDataObject = { ...payload };
		if (options.includeMetadata === true) {
			json.event = event;
			json.deliveryId = headers['x-service-delivery'];
			json.eventId = delivery.id;
			json.workspaceId = delivery.workspaceId;
			json.timestamp = delivery.timestamp;
		}
		return { workflowData: [this.helpers.returnJsonArray(json)] };
	}
}
