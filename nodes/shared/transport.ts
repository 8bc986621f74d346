import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { serviceApiError } from './errors';

/** Any node context that can call the service. */
export type TaskspaceContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions;

/** A request to the service, relative to the credential's base URL. */
export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path starting with `/api/...`; path parameters must already be URL-encoded. */
	path: string;
	/** JSON body (or a raw `Buffer` with `headers['content-type']` set). */
	body?: IDataObject | IDataObject[] | Buffer;
	qs?: IDataObject;
	headers?: IDataObject;
	/** Item the request belongs to, recorded on errors. */
	itemIndex?: number;
	/** Return the body as bytes (downloads) instead of parsing JSON. */
	binary?: boolean;
}

/**
 * The credential type the node uses, from its `authentication` parameter (read in any
 * context: execute, load options, hooks): `taskspaceOAuth2Api` or `taskspaceApi`.
 */
export function credentialTypeOf(ctx: TaskspaceContext): string {
	const authentication =
		'getInputData' in ctx
			? (ctx as IExecuteFunctions).getNodeParameter('authentication', 0, 'accessToken')
			: (ctx as ILoadOptionsFunctions).getNodeParameter('authentication', 'accessToken');
	return authentication === 'oAuth2' ? 'taskspaceOAuth2Api' : 'taskspaceApi';
}

/** `path` segment encoder for ids used in URLs. */
export function seg(value: string | number): string {
	return encodeURIComponent(String(value));
}

/**
 * Calls the service with the node's credentials and returns the parsed JSON body
 * (the whole envelope, e.g. `{ok:true, item}`).
 *
 * Errors: a non-2xx response becomes a `NodeApiError` with the HTTP status and the
 * service's code and message (see `serviceApiError`); a transport failure (refused
 * connection, DNS, TLS) surfaces as the `NodeApiError` n8n raises for it, unchanged.
 */
export async function taskspaceRequest(this: TaskspaceContext, request: ApiRequest): Promise<IDataObject> {
	const credentialType = credentialTypeOf(this);
	const credentials = await this.getCredentials(credentialType);
	const baseUrl = String(credentials.baseUrl ?? '').replace(/\/+$/, '');
	const isRaw = Buffer.isBuffer(request.body);
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}`,
		qs: request.qs,
		headers: { accept: 'application/json', ...(request.headers ?? {}) },
		body: request.body,
		json: !isRaw && !request.binary,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	if (request.binary) options.encoding = 'arraybuffer';
	if (request.body === undefined) delete options.body;
	if (!request.qs || Object.keys(request.qs).length === 0) delete options.qs;

	let response: IN8nHttpFullResponse;
	try {
		response = (await this.helpers.httpRequestWithAuthentication.call(
			this,
			credentialType,
			options,
		)) as IN8nHttpFullResponse;
	} catch (error) {
		// n8n already raised a NodeApiError (network failure) or a NodeOperationError
		// (missing credentials): both constructors return such an error unchanged.
		if (error instanceof NodeOperationError) throw new NodeOperationError(this.getNode(), error);
		if (error instanceof NodeApiError && request.itemIndex !== undefined) {
			error.context.itemIndex = request.itemIndex;
		}
		throw new NodeApiError(this.getNode(), error as JsonObject, { itemIndex: request.itemIndex });
	}

	const ok = response.statusCode >= 200 && response.statusCode < 300;
	if (request.binary && ok) {
		return { data: toBuffer(response.body), headers: response.headers as IDataObject };
	}
	let body: unknown = response.body;
	if (Buffer.isBuffer(body) || body instanceof ArrayBuffer) body = toBuffer(body).toString('utf8');
	if (typeof body === 'string' && body.length > 0 && /json/i.test(String(response.headers?.['content-type'] ?? ''))) {
		try {
			body = JSON.parse(body);
		} catch {
			// keep the text: the error below reports it as the message
		}
	}
	if (!ok) {
		const retryAfter = response.headers?.['retry-after'];
		throw serviceApiError(this.getNode(), response.statusCode, body, request.itemIndex, retryAfter === undefined ? undefined : String(retryAfter));
	}
	return (body ?? {}) as IDataObject;
}

/** Bytes of a response body, whatever form the HTTP helper returned them in. */
function toBuffer(body: unknown): Buffer {
	if (Buffer.isBuffer(body)) return body;
	if (body instanceof ArrayBuffer) return Buffer.from(body);
	if (typeof body === 'string') return Buffer.from(body, 'utf8');
	return Buffer.from(JSON.stringify(body ?? ''), 'utf8');
}

/** `GET` of raw bytes: `{data: Buffer, headers}`. */
export async function requestBytes(
	this: TaskspaceContext,
	request: ApiRequest,
): Promise<{ data: Buffer; headers: IDataObject }> {
	const result = await taskspaceRequest.call(this, { ...request, binary: true });
	return result as unknown as { data: Buffer; headers: IDataObject };
}

/** `GET`/`POST`/... returning the envelope's `item`. */
export async function requestItem(this: TaskspaceContext, request: ApiRequest): Promise<IDataObject> {
	const body = await taskspaceRequest.call(this, request);
	return (body.item ?? {}) as IDataObject;
}

/** `GET` returning the envelope's `items`. */
export async function requestItems(this: TaskspaceContext, request: ApiRequest): Promise<IDataObject[]> {
	const body = await taskspaceRequest.call(this, request);
	return (Array.isArray(body.items) ? body.items : []) as IDataObject[];
}
