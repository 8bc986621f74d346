import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The id selected in a resource locator (any mode), trimmed; throws when empty. */
export function idParam(ctx: IExecuteFunctions, name: string, i: number, label = name): string {
	const value = ctx.getNodeParameter(name, i, '', { extractValue: true }) as unknown;
	const id = String(value ?? '').trim();
	if (!id) throw new NodeOperationError(ctx.getNode(), `${label} is required`, { itemIndex: i });
	return id;
}

/**
 * A `json` parameter as its value: parsed when n8n hands over text (an empty text is `{}`), as is
 * when an expression already gave an object. Throws a NodeOperationError naming `label` when the
 * text is not JSON.
 */
export function jsonParam(ctx: IExecuteFunctions, name: string, i: number, label: string): unknown {
	const raw = ctx.getNodeParameter(name, i, '{}');
	if (typeof raw !== 'string') return raw;
	try {
		return JSON.parse(raw === '' ? '{}' : raw) as unknown;
	} catch {
		throw new NodeOperationError(ctx.getNode(), `${label} is not valid JSON`, { itemIndex: i });
	}
}

/** A collection parameter (`options`, `additionalFields`, ...) as an object. */
export function collectionParam(ctx: IExecuteFunctions, name: string, i: number): IDataObject {
	return (ctx.getNodeParameter(name, i, {}) as IDataObject) ?? {};
}

/** One member handle as typed or picked: trimmed, without a leading `@`. */
export function handleOf(value: unknown): string {
	return String(value ?? '').trim().replace(/^@/, '');
}

/**
 * Member handles from a parameter: an array (multi-options), or a comma-separated string
 * (text field or expression); each one trimmed and without a leading `@`, empty ones dropped.
 */
export function handlesOf(value: unknown): string[] {
	const list = Array.isArray(value) ? value : String(value ?? '').split(',');
	return list.map((h) => handleOf(String(h))).filter(Boolean);
}

/** In list search and load options: the id picked in a resource locator of the node, or '' when unset. */
export function currentId(ctx: ILoadOptionsFunctions, name: string): string {
	try {
		return String(ctx.getCurrentNodeParameter(name, { extractValue: true }) ?? '').trim();
	} catch {
		return '';
	}
}
