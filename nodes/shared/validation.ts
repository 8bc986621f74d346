import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** Maximum length of a task's content, in characters (spec section 8). */
export const MAX_TASK_CONTENT = 2000;

/** Rules a text parameter must satisfy before it is sent. */
export interface TextRules {
	/** Minimum length in characters (default 1). */
	min?: number;
	/** Maximum length in characters. */
	max?: number;
	/** Refuse CR and LF (default false). */
	singleLine?: boolean;
}

/**
 * Checks `value` against `rules` and returns it; throws a `NodeOperationError` naming the
 * parameter (`label`) and the rule it breaks, before any request is made.
 */
export function checkText(
	ctx: IExecuteFunctions,
	i: number,
	label: string,
	value: unknown,
	rules: TextRules = {},
): string {
	const node = ctx.getNode();
	if (typeof value !== 'string') {
		throw new NodeOperationError(node, `${label} must be text`, { itemIndex: i });
	}
	const min = rules.min ?? 1;
	if (value.length < min) {
		throw new NodeOperationError(
			node,
			min === 1 ? `${label} must not be empty` : `${label} must be at least ${min} characters long`,
			{ itemIndex: i },
		);
	}
	if (rules.max !== undefined && value.length > rules.max) {
		throw new NodeOperationError(
			node,
			`${label} is ${value.length} characters long; the maximum is ${rules.max}`,
			{ itemIndex: i, description: 'Shorten the text or split it across several tasks' },
		);
	}
	if (rules.singleLine && /[\r\n]/.test(value)) {
		throw new NodeOperationError(node, `${label} must be a single line (no line breaks)`, {
			itemIndex: i,
			description: 'Remove line breaks, for example with {{ $json.text.replace(/[\\r\\n]+/g, " ") }}',
		});
	}
	return value;
}

/** Task content rules of spec section 8: 1 to 2000 characters, no CR or LF. */
export function checkTaskContent(ctx: IExecuteFunctions, i: number, value: unknown, label = 'Content'): string {
	return checkText(ctx, i, label, value, { min: 1, max: MAX_TASK_CONTENT, singleLine: true });
}
