import { BlockList, isIP } from 'node:net';

/**
 * The SSRF guard's address rules (spec section 6.1 rule 4; README "Events and webhooks", "SSRF guard").
 *
 * Every outbound delivery resolves its host once per attempt, checks every resolved address
 * here, and connects only to the address it checked (see `guarded-http.ts`). Categories:
 *
 * - `loopback` (127.0.0.0/8, ::1) and `private` (10/8, 172.16/12, 192.168/16, 100.64/10 CGNAT,
 *   fc00::/7 unique-local): refused unless the development switch
 *   `TASKSPACE_WEBHOOKS_ALLOW_INSECURE=1` is on.
 * - `link-local` (169.254/16 including the 169.254.169.254 metadata address, fe80::/10),
 *   `metadata` (fd00:ec2::254, 100.100.100.200) and `reserved` (0/8, unspecified, multicast,
 *   documentation and benchmark ranges, 240/4, broadcast, IPv4-compatible ::/96, 6to4, Teredo,
 *   site-local): always refused.
 * - IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d, RFC 2765) and NAT64
 *   (64:ff9b::a.b.c.d) addresses are judged by the IPv4 address they carry.
 * - `TASKSPACE_WEBHOOKS_ALLOW_ADDRESSES` lists addresses/ranges that are allowed regardless.
 */

/** What an address is, for the guard. */
export type AddressCategory = 'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'reserved';

/** The settings the guard applies (built from `config.webhooks` by {@link addressPolicy}). */
export interface AddressPolicy {
  /** The development switch: http targets and loopback/private addresses allowed. */
  allowInsecure: boolean;
  /** Explicitly allowed addresses and ranges, or undefined. */
  allowList: BlockList | undefined;
}

type Range = [address: string, prefix: number];

function list(v4: Range[], v6: Range[]): BlockList {
  const blocks = new BlockList();
  for (const [address, prefix] of v4) blocks.addSubnet(address, prefix, 'ipv4');
  for (const [address, prefix] of v6) blocks.addSubnet(address, prefix, 'ipv6');
  return blocks;
}

const METADATA = list([['100.100.100.200', 32]], [['fd00:ec2::254', 128]]);
const LOOPBACK = list([['127.0.0.0', 8]], [['::1', 128]]);
const PRIVATE = list(
  [
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['100.64.0.0', 10],
  ],
  [['fc00::', 7]],
);
const LINK_LOCAL = list([['169.254.0.0', 16]], [['fe80::', 10]]);
const RESERVED = list(
  [
    ['0.0.0.0', 8],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ],
  [
    ['::', 96],
    ['64:ff9b:1::', 48],
    ['100::', 64],
    ['2001::', 23],
    ['2001:db8::', 32],
    ['2002::', 16],
    ['fec0::', 10],
    ['ff00::', 8],
  ],
);

/**
 * The 8 16-bit groups of an IPv6 address (zone id ignored, embedded dotted quads accepted),
 * or undefined when `address` is not IPv6.
 */
export function ipv6Groups(address: string): number[] | undefined {
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0]!;
  if (isIP(bare) !== 6) return undefined;
  let text = bare;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -dotted[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...new Array<number>(zeros).fill(0), ...right];
}

/**
 * The IPv4 address carried by an IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96)
 * or NAT64 (64:ff9b::/96) address.
 */
export function embeddedIPv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (!g) return undefined;
  const zeroPrefix = g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0;
  const mapped = zeroPrefix && g[4] === 0 && g[5] === 0xffff;
  const translated = zeroPrefix && g[4] === 0xffff && g[5] === 0;
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0;
  if (!mapped && !translated && !nat64) return undefined;
  return `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
}

/**
 * Classifies an IP address (IPv4 or IPv6, brackets and zone ids tolerated).
 * @throws TypeError when `address` is not an IP address.
 */
export function classifyAddress(address: string): AddressCategory {
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0]!;
  const family = isIP(bare);
  if (family === 0) throw new TypeError(`not an IP address: ${address}`);
  const v4 = family === 6 ? embeddedIPv4(bare) : undefined;
  if (v4) return classifyAddress(v4);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (METADATA.check(bare, type)) return 'metadata';
  if (LOOPBACK.check(bare, type)) return 'loopback';
  if (PRIVATE.check(bare, type)) return 'private';
  if (LINK_LOCAL.check(bare, type)) return 'link-local';
  if (RESERVED.check(bare, type)) return 'reserved';
  return 'public';
}

/** The guard's verdict on one address. */
export interface AddressVerdict {
  allowed: boolean;
  category: AddressCategory;
}

function explicitlyAllowed(policy: AddressPolicy, address: string): boolean {
  if (!policy.allowList) return false;
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0]!;
  const family = isIP(bare);
  if (policy.allowList.check(bare, family === 6 ? 'ipv6' : 'ipv4')) return true;
  const v4 = family === 6 ? embeddedIPv4(bare) : undefined;
  return v4 !== undefined && policy.allowList.check(v4, 'ipv4');
}

/** Whether the guard lets a delivery connect to `address` under `policy`. */
export function checkAddress(policy: AddressPolicy, address: string): AddressVerdict {
  const category = classifyAddress(address);
  if (category === 'public' || explicitlyAllowed(policy, address)) return { allowed: true, category };
  if (policy.allowInsecure && (category === 'loopback' || category === 'private')) return { allowed: true, category };
  return { allowed: false, category };
}

/** Builds the allow list of `TASKSPACE_WEBHOOKS_ALLOW_ADDRESSES` entries (validated by `loadConfig`). */
export function allowListOf(entries: readonly string[]): BlockList | undefined {
  if (entries.length === 0) return undefined;
  const allow = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/') as [string, string | undefined];
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) allow.addAddress(address, type);
    else allow.addSubnet(address, Number(prefix), type);
  }
  return allow;
}

/** Why a target URL was refused at registration time. */
export interface UrlRefusal {
  /** The `details.reason` of the 400: invalid_format, insecure_scheme, credentials_not_allowed, blocked_address. */
  reason: string;
  message: string;
  /** For `blocked_address`: the refused IP literal and its category. */
  address?: string;
  category?: AddressCategory;
}

/**
 * Syntax and policy checks of a target URL at registration (spec section 8): absolute http(s)
 * URL, https unless the development switch is on, no user:password part, and, when the host is
 * an IP literal, an address the guard allows. Host names are checked at each delivery attempt,
 * after resolution (DNS answers can change).
 * @returns the normalised URL, or the refusal.
 */
export function checkTargetUrl(raw: string, policy: AddressPolicy): URL | UrlRefusal {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { reason: 'invalid_format', message: 'targetUrl must be an absolute URL' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowInsecure)) {
    return {
      reason: 'insecure_scheme',
      message:
        url.protocol === 'http:'
          ? 'targetUrl must use https (http is allowed only with TASKSPACE_WEBHOOKS_ALLOW_INSECURE=1)'
          : 'targetUrl must be an https URL',
    };
  }
  if (url.username || url.password) {
    return { reason: 'credentials_not_allowed', message: 'targetUrl must not contain a user name or password' };
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    const verdict = checkAddress(policy, host);
    if (!verdict.allowed) {
      return {
        reason: 'blocked_address',
        message: `targetUrl points to a ${verdict.category} address, which webhooks may not reach`,
        address: host,
        category: verdict.category,
      };
    }
  }
  return url;
}
