import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The "After" / "Before" options of a cursor list (`what` names the listed things). */
export function cursorOptions(what: string): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'After Task ID',
				name: 'after',
				type: 'string',
				default: '',
				description: `Only return the ${what}s that come after this task, in document order`,
			},
			{
				displayName: 'Before Task ID',
				name: 'before',
				type: 'string',
				default: '',
				description: `Only return the ${what}s that come before this task, in document order`,
			},
		],
	};
}

/** Reads the cursor options; "After" and "Before" together are refused before any request. */
export function readCursor(ctx: IExecuteFunctions, i: number, options: IDataObject): { after?: string; before?: string } {
	const after = String(options.after ?? '').trim() || undefined;
	const before = String(options.before ?? '').trim() || undefined;
	if (after && before) {
		throw new NodeOperationError(ctx.getNode(), 'Use either "After Task ID" or "Before Task ID", not both', {
			itemIndex: i,
		});
	}
	return { after, before };
}
