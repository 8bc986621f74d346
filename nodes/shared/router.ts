import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { serviceErrorCode } from './errors';

/** Output items built by an operation itself (e.g. with binary data); `pairedItem` is added by the router. */
export class ItemsResult {
	constructor(readonly items: INodeExecutionData[]) {}
}

/** Runs one operation for input item `i` and returns the JSON (or items) to output for it. */
export type OperationHandler = (
	this: IExecuteFunctions,
	i: number,
) => Promise<IDataObject | IDataObject[] | ItemsResult>;

/** One operation in its own file: its parameters and its handler. */
export interface OperationModule {
	description: INodeProperties[];
	execute: OperationHandler;
}

/** Handlers by resource, then by operation. */
export type OperationRegistry = Record<string, Record<string, OperationHandler>>;

/**
 * Adds `displayOptions` to every property (merged with any the property already has), so
 * that an operation's file can declare its parameters once.
 */
export function showFor(resource: string, operation: string, properties: INodeProperties[]): INodeProperties[] {
	const extra: IDisplayOptions = { show: { resource: [resource], operation: [operation] } };
	return properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...property.displayOptions?.show, ...extra.show },
		},
	}));
}

/** Turns a resource's operation modules into its handler map. */
export function handlersOf(modules: Record<string, OperationModule>): Record<string, OperationHandler> {
	const out: Record<string, OperationHandler> = {};
	for (const [name, module] of Object.entries(modules)) out[name] = module.execute;
	return out;
}

/**
 * The `error` object a failed item carries when the node continues on fail: the message, and
 * what is known of the cause: the description, the service's error code, the HTTP status, the
 * offending field and reason of a validation error.
 */
export function errorDetails(error: unknown): IDataObject {
	const details: IDataObject = { message: error instanceof Error ? error.message : String(error) };
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.description) details.description = error.description;
	}
	const code = serviceErrorCode(error);
	if (code !== undefined) details.code = code;
	if (error instanceof NodeApiError && error.httpCode) details.httpCode = String(error.httpCode);
	if (error instanceof NodeApiError) {
		const cause = (error as unknown as { errorResponse?: { details?: { field?: unknown; reason?: unknown } } }).errorResponse;
		if (typeof cause?.details?.field === 'string') details.field = cause.details.field;
		if (typeof cause?.details?.reason === 'string') details.reason = cause.details.reason;
	}
	return details;
}

/** The failure as the n8n error n8n-core routes: API errors stay NodeApiError, anything else becomes a NodeOperationError. */
function nodeError(this: IExecuteFunctions, error: unknown, i: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError) {
		error.context.itemIndex ??= i;
		// Returns the same error: a NodeApiError is never wrapped twice.
		return new NodeApiError(this.getNode(), error as never);
	}
	if (error instanceof NodeOperationError) return error;
	return new NodeOperationError(this.getNode(), error as Error, { itemIndex: i });
}

/**
 * The shared `execute` of the action nodes: for each input item, dispatches on
 * `resource` and `operation`, outputs the result with `pairedItem` pointing to the input
 * item, and, when the node continues on fail, outputs a failed item instead of stopping: the
 * input item's JSON with `error: {message, description?, code?, httpCode?, field?, reason?}`,
 * paired with the input item:
 * - "Continue (using error output)": the node outputs `{error}`, paired; n8n moves it to the error
 *   output and merges the input item's JSON into it (n8n-core's `handleNodeErrorOutput`);
 * - "Continue" (regular output): the node merges the input item itself; on the main output.
 */
export async function executeOperations(
	this: IExecuteFunctions,
	registry: OperationRegistry,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const output: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		try {
			const resource = this.getNodeParameter('resource', i) as string;
			const operation = this.getNodeParameter('operation', i) as string;
			const handler = registry[resource]?.[operation];
			if (!handler) {
				throw new NodeOperationError(
					this.getNode(),
					`The operation "${operation}" is not supported for "${resource}"`,
					{ itemIndex: i },
				);
			}
			const result = await handler.call(this, i);
			const produced = result instanceof ItemsResult ? result.items : this.helpers.returnJsonArray(result);
			const executionData = this.helpers.constructExecutionMetaData(produced, { itemData: { item: i } });
			output.push(...executionData);
		} catch (error) {
			const failure = nodeError.call(this, error, i);
			if (this.continueOnFail()) {
				const error = errorDetails(failure);
				if (this.getNode().onError === 'continueErrorOutput') {
					// `{error}` alone is what n8n routes to the error output; it then merges the input item
					// (found through pairedItem) into it. An item carrying the n8n error itself (`item.error`)
					// would be routed too, but n8n replaces its JSON with `{error: <message>}`.
					output.push({ json: { error }, pairedItem: { item: i } });
				} else {
					output.push({ json: { ...(items[i]?.json ?? {}), error }, pairedItem: { item: i } });
				}
				continue;
			}
			throw failure;
		}
	}
	return [output];
}
