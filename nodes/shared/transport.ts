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
	/**
	 * Send the request without the credential (no `Authorization` header): for the service's own
	 * public URLs, such as an automation's inbound URL, which must never receive the token.
	 */
	anonymous?: boolean;
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
 * The HTTP status and body of a request that n8n's helper threw for (after an OAuth2 refresh and
 * retry): n8n wraps the HTTP client's error in a `NodeApiError` that keeps the status (`httpCode`)
 * and a JSON body (`context.data`), not the response headers.
 */
function thrownStatusOf(error: unknown): { status: number; body: unknown } | undefined {
	const thrown = asN8nError(error);
	if (!thrown || !/^\d{3}$/.test(String(thrown.httpCode ?? ''))) return undefined;
	return { status: Number(thrown.httpCode), body: thrown.context?.data ?? thrown.message };
}

/**
 * An error n8n raised, read by shape: the `NodeApiError` class of the n8n running the node can be
 * another copy of n8n-workflow than the one this package resolves, so `instanceof` is not reliable.
 */
function asN8nError(error: unknown): { httpCode?: unknown; message?: string; context?: { data?: unknown } } | undefined {
	if (!error || typeof error !== 'object' || !('httpCode' in error)) return undefined;
	return error as { httpCode?: unknown; message?: string; context?: { data?: unknown } };
}

/**
 * Whether n8n failed to renew an OAuth2 access token: its OAuth2 client raises an `AuthError`
 * (code `EAUTH`) for a token endpoint answer such as `invalid_grant` (RFC 6749 section 5.2), which
 * n8n wraps in a `NodeApiError` whose `httpCode` is that code.
 */
function isRefreshRefusal(error: unknown): boolean {
	return asN8nError(error)?.httpCode === 'EAUTH' || (error as { code?: unknown } | undefined)?.code === 'EAUTH';
}

/** A response body as JSON when it says it is JSON (bytes and text included), else as text. */
function parsedBody(body: unknown, headers: IDataObject | undefined): unknown {
	if (Buffer.isBuffer(body) || body instanceof ArrayBuffer) body = toBuffer(body).toString('utf8');
	if (typeof body === 'string' && body.length > 0 && /json/i.test(String(headers?.['content-type'] ?? ''))) {
		try {
			return JSON.parse(body);
		} catch {
			// keep the text: an error reports it as the message
		}
	}
	return body;
}

/**
 * Calls the service with the node's credentials and returns the parsed JSON body
 * (the whole envelope, e.g. `{ok:true, item}`).
 *
 * Errors:
 * - a non-2xx response becomes a `NodeApiError` with the HTTP status and the service's code and
 *   message (see `serviceApiError`; read from the whole response, `Retry-After` included);
 * - with the OAuth2 credential, a 401 first lets n8n refresh the access token and retry (see
 *   below); a refused refresh (the grant was revoked, or the refresh token expired) becomes a
 *   `NodeApiError` (401) asking to reconnect the credential;
 * - a transport failure (refused connection, DNS, TLS) surfaces as the `NodeApiError` n8n
 *   raises for it, unchanged.
 *
 * JSON bodies are sent as JSON text with `content-type: application/json`, so an empty object or
 * array is sent as `{}`/`[]` (n8n's helper drops an empty object body).
 */
export async function taskspaceRequest(this: TaskspaceContext, request: ApiRequest): Promise<IDataObject> {
	const credentialType = credentialTypeOf(this);
	const credentials = await this.getCredentials(credentialType);
	const baseUrl = String(credentials.baseUrl ?? '').replace(/\/+$/, '');
	const isRaw = Buffer.isBuffer(request.body);
	const headers: IDataObject = { accept: 'application/json', ...(request.headers ?? {}) };
	let body: IHttpRequestOptions['body'] = request.body as IHttpRequestOptions['body'];
	if (request.body !== undefined && !isRaw) {
		body = JSON.stringify(request.body);
		if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
			headers['content-type'] = 'application/json';
		}
	}
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}`,
		qs: request.qs,
		body,
		json: !isRaw && !request.binary,
		returnFullResponse: true,
	};
	if (request.binary) options.encoding = 'arraybuffer';
	if (request.body === undefined) delete options.body;
	if (!request.qs || Object.keys(request.qs).length === 0) delete options.qs;

	const send = async (ignoreHttpStatusErrors: boolean) =>
		(request.anonymous
			? await this.helpers.httpRequest({ ...options, headers: { ...headers }, ignoreHttpStatusErrors })
			: await this.helpers.httpRequestWithAuthentication.call(this, credentialType, {
					...options,
					headers: { ...headers },
					ignoreHttpStatusErrors,
				})) as IN8nHttpFullResponse;
	let response: IN8nHttpFullResponse;
	try {
		response = await send(true);
		if (response.statusCode === 401 && credentialType === 'taskspaceOAuth2Api' && !request.anonymous) {
			// The access token expired or was revoked. n8n renews an OAuth2 token only when the request
			// throws a 401: send it again letting errors throw, so that n8n refreshes the token, stores
			// the new tokens in the credential and retries with them. (A request refused with 401 did
			// nothing on the service, so sending it again is safe.)
			response = await send(false);
		}
	} catch (error) {
		const thrown = thrownStatusOf(error);
		if (thrown) {
			throw serviceApiError(this.getNode(), thrown.status, thrown.body, request.itemIndex);
		}
		if (credentialType === 'taskspaceOAuth2Api' && isRefreshRefusal(error)) {
			throw new NodeApiError(this.getNode(), { message: (error as Error).message, code: 'EAUTH' } as JsonObject, {
				message: 'Taskspace refused to renew the OAuth2 access token: reconnect the credential',
				description: `The access token is no longer accepted and renewing it was refused ("${(error as Error).message}"). The authorization was revoked in Taskspace (My account → Authorized apps), or the refresh token expired. Open the Taskspace OAuth2 credential in n8n and connect it again.`,
				httpCode: '401',
				itemIndex: request.itemIndex,
			});
		}
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
	const parsed = parsedBody(response.body, response.headers as IDataObject);
	if (!ok) {
		const retryAfter = response.headers?.['retry-after'];
		throw serviceApiError(this.getNode(), response.statusCode, parsed, request.itemIndex, retryAfter === undefined ? undefined : String(retryAfter));
	}
	return (parsed ?? {}) as IDataObject;
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
