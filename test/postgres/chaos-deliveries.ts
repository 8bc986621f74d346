import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';

/**
 * What the chaos test (chaos.test.ts) observes of outbound webhook deliveries, on a loopback
 * receiver of its own: every attempt as it arrived, and from that the repeats under one attempt
 * number, the time from an event to its first delivery, and the spacing of retries (docs
 * "Webhooks", "Guarantees" and "Retries").
 */

/** One delivery attempt as the receiver saw it. */
export interface SeenAttempt {
  /** The path it was sent to (one registration each). */
  target: string;
  /** `X-Service-Delivery`. */
  id: string;
  /** `X-Service-Attempt`. */
  attempt: number;
  /** When its request arrived (ms since the epoch, this machine's clock, as the servers'). */
  at: number;
  /** The event's time (the body's `timestamp`, ms). */
  eventAt: number;
  /** The project of a `project.created` event. */
  projectId: string;
  /** What the receiver answered. */
  status: number;
}

/** How the receiver answers one attempt: a status, after holding the request `holdMs`. */
export interface Reply {
  status: number;
  holdMs?: number;
}

/** A time during which a process was killed or stalled and its work moved elsewhere (ms since the epoch). */
export interface Disruption {
  what: string;
  from: number;
  to: number;
}

/** A stable number of a delivery id (to pick which deliveries a target treats differently). */
export function idNumber(id: string): number {
  let n = 0;
  for (let i = 0; i < id.length; i++) n = (n * 31 + id.charCodeAt(i)) % 1_000_003;
  return n;
}

/** A loopback receiver recording every delivery attempt; `reply` says how each is answered. */
export async function deliveryReceiver(reply: (seen: Omit<SeenAttempt, 'status'>) => Reply) {
  const seen: SeenAttempt[] = [];
  const server = http.createServer((req, res) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { timestamp: string; payload: { projectId?: string } };
      const attempt = {
        target: req.url!,
        id: String(req.headers['x-service-delivery']),
        attempt: Number(req.headers['x-service-attempt']),
        at,
        eventAt: Date.parse(body.timestamp),
        projectId: String(body.payload.projectId),
      };
      const answer = reply(attempt);
      seen.push({ ...attempt, status: answer.status });
      const send = () => res.writeHead(answer.status, { 'content-type': 'application/json' }).end('{}');
      if (answer.holdMs) setTimeout(send, answer.holdMs);
      else send();
    });
  });
  // Requests held while their sender is killed must not keep the server from closing.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The `q` quantile (0–1) of `values` (nearest rank), or 0 without values. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Attempts that arrived more than once under the same delivery id and attempt number: `target id #attempt ×count`. */
export function repeatedAttempts(seen: readonly SeenAttempt[]): string[] {
  const counts = new Map<string, number>();
  for (const s of seen) {
    const key = `${s.target} ${s.id} #${s.attempt}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].filter(([, n]) => n > 1).map(([key, n]) => `${key} ×${n}`);
}

/**
 * Per delivery (target and id), the time from its event to its first attempt's arrival, in ms;
 * leaving out the events raised during one of `without` or in the `marginMs` before it.
 */
export function firstDeliveryMs(seen: readonly SeenAttempt[], without: readonly Disruption[] = [], marginMs = 2000): number[] {
  const first = new Map<string, SeenAttempt>();
  for (const s of seen) {
    if (without.some((d) => s.eventAt >= d.from - marginMs && s.eventAt <= d.to)) continue;
    const key = `${s.target} ${s.id}`;
    const had = first.get(key);
    if (!had || s.at < had.at) first.set(key, s);
  }
  return [...first.values()].map((s) => s.at - s.eventAt);
}

/** One retry: the attempt answered with a retried status and the next attempt of the same delivery. */
export interface RetryGap {
  id: string;
  /** The attempt that was answered 5xx (1-based). */
  after: number;
  /** ms between their arrivals. */
  gapMs: number;
  /** The configured wait after attempt `after`: d = min(max, base × 2^(after − 1)); the wait is in [d/2, d]. */
  boundMs: number;
}

/**
 * The retries of `target`: each attempt answered 503 and the arrival of the next attempt of that
 * delivery, leaving out pairs that a disruption overlaps (an attempt cut off by a kill or a stall
 * is sent again when its sender is found gone, which is not a retry's wait).
 */
export function retryGaps(
  seen: readonly SeenAttempt[],
  target: string,
  settings: { baseMs: number; maxMs: number },
  disruptions: readonly Disruption[],
): RetryGap[] {
  const byId = new Map<string, SeenAttempt[]>();
  for (const s of seen) if (s.target === target) byId.set(s.id, [...(byId.get(s.id) ?? []), s]);
  const gaps: RetryGap[] = [];
  for (const [id, attempts] of byId) {
    attempts.sort((a, b) => a.at - b.at);
    for (let i = 0; i + 1 < attempts.length; i++) {
      const a = attempts[i]!;
      const b = attempts[i + 1]!;
      if (a.status !== 503) continue;
      if (disruptions.some((d) => d.from <= b.at && d.to >= a.at)) continue;
      const boundMs = Math.min(settings.maxMs, settings.baseMs * 2 ** (a.attempt - 1));
      gaps.push({ id, after: a.attempt, gapMs: b.at - a.at, boundMs });
    }
  }
  return gaps;
}

/** The machine's load, for the test output: the 1-minute load average over the cores. */
export function machineLoad(): string {
  return `load average ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} cores`;
}
