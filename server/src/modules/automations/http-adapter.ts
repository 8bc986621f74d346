import { ActionError, type Http, type HttpRequest, type HttpResponse } from '@taskspace/engine';
import { BlockedTargetError, GuardedHttp, type GuardPolicy } from '../../platform/guarded-http';

/** Largest response body an HTTP Request action accepts, in bytes (1 MiB); larger fails the step (permanent). */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * The engine's {@link Http} port: undici through the same SSRF guard as webhook delivery
 * (`platform/guarded-http.ts`): https only and no loopback/private/link-local/metadata targets,
 * unless the development switch `TASKSPACE_WEBHOOKS_ALLOW_INSECURE=1` is on (or the address is
 * listed in `TASKSPACE_WEBHOOKS_ALLOW_ADDRESSES`). Redirects are not followed. A refused target
 * is a permanent `BLOCKED_TARGET` failure; network errors and timeouts are transient.
 */
export class GuardedHttpAdapter implements Http {
  private readonly guarded: GuardedHttp;

  /** @param policy the app's address policy (`Services.addressPolicy`). */
  constructor(policy: GuardPolicy) {
    this.guarded = new GuardedHttp(policy);
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    let res;
    try {
      const init: Parameters<GuardedHttp['request']>[1] = {
        method: req.method as 'GET',
        headers: req.headers,
        timeoutMs: req.timeoutMs,
        maxResponseBytes: MAX_RESPONSE_BYTES + 1,
      };
      if (req.body !== undefined) init.body = req.body;
      if (req.signal) init.signal = req.signal;
      res = await this.guarded.request(req.url, init);
    } catch (error) {
      if (error instanceof BlockedTargetError) throw new ActionError('BLOCKED_TARGET', error.message, false);
      throw error;
    }
    if (res.body.length > MAX_RESPONSE_BYTES) throw new ActionError('RESPONSE_TOO_LARGE', `the response body exceeds ${MAX_RESPONSE_BYTES} bytes`, false);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    return { status: res.statusCode, headers, body: res.body.toString('utf8') };
  }

  /** Closes pooled connections. */
  close(): Promise<void> {
    return this.guarded.close();
  }
}
