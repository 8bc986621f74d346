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

/** The error JSON an item carries when the node continues on fail. */
function errorJson(error: unknown): IDataObject {
	const json: IDataObject = { error: error instanceof Error ? error.message : String(error) };
	const code = serviceErrorCode(error);
	if (code !== undefined) json.code = code;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.description) json.description = error.description;
	}
	return json;
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
 * item, and, when the node continues on fail, outputs a failed item instead of stopping:
 * - "Continue (using error output)": the item carries the n8n error itself, which is what makes
 *   n8n route it to the error output (n8n shows it there as `{error: <message>}`, merged with
 *   the input item);
 * - "Continue" (regular output): `{error, code?, httpCode?, description?}` on the main output.
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
			const items = result instanceof ItemsResult ? result.items : this.helpers.returnJsonArray(result);
			const executionData = this.helpers.constructExecutionMetaData(items, { itemData: { item: i } });
			output.push(...executionData);
		} catch (error) {
			const failure = nodeError.call(this, error, i);
			if (this.continueOnFail()) {
				const routed = this.getNode().onError === 'continueErrorOutput';
				output.push(routed ? { json: errorJson(error), error: failure, pairedItem: { item: i } } : { json: errorJson(error), pairedItem: { item: i } });
				continue;
			}
			throw failure;
		}
	}
	return [output];
}
