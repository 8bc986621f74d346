import { lookup as dnsLookup } from 'node:dns/promises';
import fs from 'node:fs';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import type { Config } from '../config';
import { allowListOf, checkAddress, checkTargetUrl, type AddressPolicy, type UrlRefusal } from './ssrf';

/**
 * Outbound HTTP that guards against server-side request forgery (spec section 6.1 rule 4;
 * README "Events and webhooks", "SSRF guard"). Used by webhook delivery; the automation engine's HTTP
 * port can reuse it.
 *
 * Per request: the URL's scheme is checked (https, or http under the development switch); the
 * host is resolved once (`dns.lookup`, all addresses); if any resolved address is refused by
 * {@link checkAddress} the request is refused before any connection is made; otherwise the
 * connection goes to the first resolved address, pinned through undici's `connect.lookup`, so a
 * second DNS answer cannot redirect it. Redirects are never followed: a 3xx is returned to the
 * caller as is. TLS certificates are always verified (extra CAs: `TASKSPACE_WEBHOOKS_CA_FILE`).
 */

/** The request was refused by the guard before connecting. Not worth retrying. */
export class BlockedTargetError extends Error {
  override name = 'BlockedTargetError';
  constructor(
    message: string,
    /** The refused address, when the refusal came from an address. */
    readonly address?: string,
  ) {
    super(message);
  }
}

/** One guarded request. */
export interface GuardedRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Deadline of the whole exchange in ms (connect, headers and body). */
  timeoutMs: number;
  /** Aborts the request early (e.g. on shutdown). */
  signal?: AbortSignal;
  /** Largest response body kept in bytes (default 0: the body is read and discarded). */
  maxResponseBytes?: number;
}

/** The answer to a guarded request. */
export interface GuardedResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  /** The first `maxResponseBytes` bytes of the body. */
  body: Buffer;
  /** The address actually connected to. */
  address: string;
}

/** A DNS resolver: every address of a host name, in the resolver's order. */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** The guard's policy: who may be connected to, and extra CAs (PEM). */
export type GuardPolicy = AddressPolicy & { ca: string | undefined };

/**
 * The guard's policy for a configuration (reads the CA file). `buildApp` builds it once and
 * shares it (`Services.addressPolicy`) with delivery, the automation HTTP port and URL validation.
 * @throws the file system error when `TASKSPACE_WEBHOOKS_CA_FILE` cannot be read.
 */
export function policyFromConfig(config: Config): GuardPolicy {
  return {
    allowInsecure: config.webhooks.allowInsecure,
    allowList: allowListOf(config.webhooks.allowAddresses),
    ca: config.webhooks.caFile ? fs.readFileSync(config.webhooks.caFile, 'utf8') : undefined,
  };
}

/** The guard's error for a URL {@link checkTargetUrl} refused. */
function refusedUrl(url: URL, refusal: UrlRefusal): BlockedTargetError {
  switch (refusal.reason) {
    case 'insecure_scheme':
      return new BlockedTargetError(`${url.protocol} targets are not allowed (https only)`);
    case 'credentials_not_allowed':
      return new BlockedTargetError('URLs with credentials are not allowed');
    case 'blocked_address':
      return new BlockedTargetError(`${refusal.address} resolves to ${refusal.address}, a ${refusal.category} address`, refusal.address);
    default:
      return new BlockedTargetError(refusal.message);
  }
}

function pinnedLookup(address: string, family: number): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

/** Response bytes read past `maxResponseBytes` before the connection is dropped. */
const MAX_DISCARDED_BYTES = 1024 * 1024;

/** Keeps at most this many pinned connection pools alive. */
const MAX_AGENTS = 64;

/**
 * A guarded HTTP client. It keeps one undici connection pool per (origin, checked address) so
 * repeated deliveries to the same receiver reuse connections; every request still resolves and
 * checks the host first. Call {@link close} on shutdown.
 */
export class GuardedHttp {
  private readonly agents = new Map<string, Agent>();
  private readonly ca: string[] | undefined;

  constructor(
    private readonly policy: AddressPolicy & { ca?: string },
    private readonly resolve: Resolver = systemResolver,
  ) {
    this.ca = policy.ca ? [...rootCertificates, policy.ca] : undefined;
  }

  /**
   * Resolves `url`'s host and checks every address.
   * @returns the address to connect to and its family.
   * @throws BlockedTargetError when the scheme or any address is refused; DNS errors as thrown by `dns.lookup`.
   */
  async pin(url: URL): Promise<{ address: string; family: number }> {
    // Scheme, credentials and IP literals: the same checks as at registration.
    const checked = checkTargetUrl(url.href, this.policy);
    if (!(checked instanceof URL)) throw refusedUrl(url, checked);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const literal = isIP(host);
    const addresses = literal !== 0 ? [{ address: host, family: literal }] : await this.resolve(host);
    if (addresses.length === 0) throw new BlockedTargetError(`${host} did not resolve to any address`);
    for (const { address } of addresses) {
      const verdict = checkAddress(this.policy, address);
      if (!verdict.allowed) {
        throw new BlockedTargetError(`${host} resolves to ${address}, a ${verdict.category} address`, address);
      }
    }
    return addresses[0]!;
  }

  /**
   * Sends one request through the guard.
   * @throws BlockedTargetError before connecting when refused; undici/network errors otherwise
   *         (including a `TimeoutError` DOMException when `timeoutMs` passes).
   */
  async request(target: string | URL, init: GuardedRequest): Promise<GuardedResponse> {
    const url = typeof target === 'string' ? new URL(target) : target;
    const pinned = await this.pin(url);
    const timeout = AbortSignal.timeout(init.timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const res = await request(url, {
      method: init.method,
      headers: init.headers,
      body: init.body,
      dispatcher: this.agentFor(url, pinned),
      headersTimeout: init.timeoutMs,
      bodyTimeout: init.timeoutMs,
      signal,
    });
    const keep = init.maxResponseBytes ?? 0;
    const chunks: Buffer[] = [];
    let kept = 0;
    let seen = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      seen += chunk.length;
      if (kept < keep) {
        const part = chunk.subarray(0, keep - kept);
        chunks.push(part);
        kept += part.length;
      }
      if (seen > keep + MAX_DISCARDED_BYTES) {
        // Enough: the status is known; do not read an endless body to its end.
        res.body.destroy();
        break;
      }
    }
    return { statusCode: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), address: pinned.address };
  }

  private agentFor(url: URL, pinned: { address: string; family: number }): Agent {
    const key = `${url.origin}|${pinned.address}`;
    let agent = this.agents.get(key);
    if (agent) {
      this.agents.delete(key);
      this.agents.set(key, agent);
      return agent;
    }
    agent = new Agent({
      connect: {
        lookup: pinnedLookup(pinned.address, pinned.family),
        timeout: 10000,
        ...(this.ca ? { ca: this.ca } : {}),
      },
      keepAliveTimeout: 4000,
    });
    this.agents.set(key, agent);
    if (this.agents.size > MAX_AGENTS) {
      const [oldestKey, oldest] = this.agents.entries().next().value as [string, Agent];
      this.agents.delete(oldestKey);
      void oldest.close().catch(() => undefined);
    }
    return agent;
  }

  /** Closes every pooled connection. */
  async close(): Promise<void> {
    const agents = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(agents.map((a) => a.destroy().catch(() => undefined)));
  }
}
