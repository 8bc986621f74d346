import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The id selected in a resource locator (any mode), trimmed; throws when empty. */
export function idParam(ctx: IExecuteFunctions, name: string, i: number, label = name): string {
	const value = ctx.getNodeParameter(name, i, '', { extractValue: true }) as unknown;
	const id = String(value ?? '').trim();
	if (!id) throw new NodeOperationError(ctx.getNode(), `${label} is required`, { itemIndex: i });
	return id;
}

/** A collection parameter (`options`, `additionalFields`, ...) as an object. */
export function collectionParam(ctx: IExecuteFunctions, name: string, i: number): IDataObject {
	return (ctx.getNodeParameter(name, i, {}) as IDataObject) ?? {};
}

/** Removes keys whose value is `undefined`, `null` or `''`. */
export function compact<T extends IDataObject>(object: T): T {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(object)) {
		if (value !== undefined && value !== null && value !== '') out[key] = value;
	}
	return out as T;
}

/** In list search and load options: the id picked in a resource locator of the node, or '' when unset. */
export function currentId(ctx: ILoadOptionsFunctions, name: string): string {
	try {
		return String(ctx.getCurrentNodeParameter(name, { extractValue: true }) ?? '').trim();
	} catch {
		return '';
	}
}
