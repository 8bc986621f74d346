import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/** The service's error envelope (spec section 7; `{ok:false, error:{code, message, details?}}`). */
export interface ServiceErrorBody {
	code?: string;
	message?: string;
	details?: { field?: string; reason?: string };
}

/** Extracts `error` from an error envelope, or `undefined` when the body is not one. */
export function serviceErrorOf(body: unknown): ServiceErrorBody | undefined {
	if (!body || typeof body !== 'object') return undefined;
	const error = (body as { error?: unknown }).error;
	if (!error || typeof error !== 'object') return undefined;
	return error as ServiceErrorBody;
}

/**
 * Builds the `NodeApiError` for a failed HTTP response: it carries the HTTP status
 * (`httpCode`), the service's message as the error message, and the service's code (plus
 * the validation field and reason when present, and for a 429 the `Retry-After` wait) as the
 * description.
 */
export function serviceApiError(
	node: INode,
	status: number,
	body: unknown,
	itemIndex?: number,
	retryAfter?: string,
): NodeApiError {
	const envelope = serviceErrorOf(body);
	const code = envelope?.code ?? `HTTP_${status}`;
	const message =
		envelope?.message ??
		(typeof body === 'string' && body.length > 0 ? body.slice(0, 500) : `Request failed with status ${status}`);
	const details = envelope?.details;
	const parts = [`Taskspace error ${code} (HTTP ${status})`];
	if (details?.field) parts.push(`field: ${details.field}`);
	if (details?.reason) parts.push(`reason: ${details.reason}`);
	if (status === 402) {
		parts.push('this needs a Pro plan or above on a verified Taskspace account');
	}
	if (status === 429 && retryAfter) {
		parts.push(/^\d+$/.test(retryAfter) ? `retry after ${retryAfter} seconds (Retry-After)` : `retry after ${retryAfter} (Retry-After)`);
	}
	const response: JsonObject = { code, message, httpCode: String(status) };
	if (details) response.details = details as JsonObject;
	return new NodeApiError(node, response, {
		message,
		description: parts.join('; '),
		httpCode: String(status),
		itemIndex,
	});
}

/** The service's error code carried by an error built with `serviceApiError`, if any. */
export function serviceErrorCode(error: unknown): string | undefined {
	if (error instanceof NodeApiError) {
		const cause = (error as unknown as { errorResponse?: JsonObject }).errorResponse;
		if (cause && typeof cause.code === 'string') return cause.code;
	}
	return undefined;
}
