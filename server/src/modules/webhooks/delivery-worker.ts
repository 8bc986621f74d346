import { transaction } from '../../platform/db/connection';
import { sql } from '../../platform/db/statements';
import type { Services } from '../../services';
import { BlockedTargetError, type GuardedHttp } from '../../platform/guarded-http';
import { WorkerLoop, type WorkerLog } from '../../platform/worker-loop';
import { parseRetryAfter } from '@taskspace/engine';
import { deliveryDelayMs, verdictForStatus, type AttemptVerdict } from './delivery-verdicts';
import { signPayload } from './signature';

/**
 * The delivery worker (README "Events and webhooks", "Delivery"): sends due `webhook_deliveries` rows,
 * oldest due first, up to `config.webhooks.concurrency` at once and `concurrencyPerTarget` to
 * any one registration or subscription, and records each attempt.
 *
 * Durability: a row is marked `sending` while its attempt is in flight and gets its outcome in
 * one transaction afterwards. When the process dies mid-attempt, the row is still `sending`;
 * {@link DeliveryWorker.start} puts such rows back to `pending`, so the attempt is sent again
 * (at-least-once: receivers de-duplicate by `X-Service-Delivery`).
 *
 * Request: `POST <url>` with body `{"id","type","workspaceId","timestamp","payload"}` and headers
 * `Content-Type: application/json`, `User-Agent`, `X-Service-Event`, `X-Service-Delivery`,
 * `X-Service-Attempt` and, for signed registrations, `X-Service-Signature: sha256=<hex>` over
 * exactly the bytes sent.
 */

/** The User-Agent of every delivery. */
export const DELIVERY_USER_AGENT = 'Taskspace-Webhooks/1';

interface DueRow {
  id: string;
  /** The registration or subscription id (per-target concurrency). */
  target: string;
  attempts: number;
  event_type: string;
  event_id: string | null;
  workspace_id: string | null;
  payload_json: string | null;
  event_at: number | null;
  url: string | null;
  secret_sealed: string | null;
}

/** Due deliveries, oldest first: id and target. Parameters: now, JSON array of targets to skip, limit. */
const DUE_IDS = `SELECT d.id, coalesce(d.webhook_id, d.subscription_id) AS target FROM webhook_deliveries d
  WHERE d.status = 'pending' AND d.next_attempt_at <= ?
    AND coalesce(d.webhook_id, d.subscription_id) NOT IN (SELECT value FROM json_each(?))
  ORDER BY d.next_attempt_at LIMIT ?`;

/** What an attempt needs, by delivery id. */
const DUE_ROW = `SELECT d.id, coalesce(d.webhook_id, d.subscription_id) AS target, d.attempts, d.event_type,
        e.id AS event_id, e.workspace_id, e.payload_json, e.created_at AS event_at,
        coalesce(w.url, s.url) AS url, w.secret_sealed
   FROM webhook_deliveries d
   LEFT JOIN events e ON e.seq = d.event_seq
   LEFT JOIN webhooks w ON w.id = d.webhook_id
   LEFT JOIN webhook_subscriptions s ON s.id = d.subscription_id
  WHERE d.id = ?`;

/** One finished attempt, waiting to be written. */
interface Outcome {
  id: string;
  number: number;
  started: number;
  now: number;
  statusCode: number | null;
  error: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  nextAt: number | null;
}

/** The delivery body for an event: `{id, type, workspaceId, timestamp, payload}` (payload bytes as stored). */
export function deliveryBody(event: { id: string; type: string; workspaceId: string; createdAt: number; payloadJson: string }): string {
  const head = JSON.stringify({ id: event.id, type: event.type, workspaceId: event.workspaceId, timestamp: new Date(event.createdAt).toISOString() });
  return `${head.slice(0, -1)},"payload":${event.payloadJson}}`;
}

function describe(error: unknown): string {
  const e = error as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code ?? e.name ?? 'Error';
  const message = e.cause?.message && e.cause.message !== e.message ? `${e.message ?? ''} (${e.cause.message})` : (e.message ?? String(error));
  return `${code}: ${message}`.slice(0, 500);
}

/** Sends queued deliveries; see the module comment. */
export class DeliveryWorker {
  private readonly inflight = new Map<string, Promise<void>>();
  /** Finished attempts waiting to be written (see {@link DeliveryWorker.flush}). */
  private outcomes: Outcome[] = [];
  private flushScheduled = false;
  private lastDeepScan = 0;
  /** Attempts in flight per target. */
  private readonly perTarget = new Map<string, number>();
  private readonly abort = new AbortController();
  private readonly loop: WorkerLoop;
  private stopping = false;

  constructor(
    private readonly svc: Services,
    private readonly http: GuardedHttp,
    private readonly log: WorkerLog,
  ) {
    this.loop = new WorkerLoop('webhook delivery', () => this.step(), log);
  }

  /** Re-queues attempts a previous process left in flight, then starts sending. */
  start(): void {
    sql(this.svc.db, "UPDATE webhook_deliveries SET status = 'pending' WHERE status = 'sending'").run();
    this.loop.start();
  }

  /** Looks for due deliveries now. */
  wake(): void {
    this.loop.wake();
  }

  /** Stops claiming, aborts attempts in flight (they stay queued) and waits for them to settle. */
  async stop(): Promise<void> {
    this.stopping = true;
    void this.loop.stop();
    this.abort.abort();
    await Promise.allSettled([...this.inflight.values()]);
    this.flush();
  }

  /** Claims due rows into free slots; returns ms until the next look. */
  private step(): number {
    const { db, clock, config } = this.svc;
    const poll = config.webhooks.pollMs;
    const free = config.webhooks.concurrency - this.inflight.size;
    if (free <= 0) return poll; // a finishing attempt wakes the loop
    const now = clock.now();
    const limit = config.webhooks.concurrencyPerTarget;
    const counts = new Map(this.perTarget);
    const rows: DueRow[] = [];
    let skipped = false;
    const pick = (candidates: { id: string; target: string }[]) => {
      for (const candidate of candidates) {
        if (rows.length === free) return;
        const n = counts.get(candidate.target) ?? 0;
        if (n >= limit) {
          skipped = true;
          continue;
        }
        counts.set(candidate.target, n + 1);
        rows.push(sql<[string], DueRow>(db, DUE_ROW).get(candidate.id)!);
        sql(db, "UPDATE webhook_deliveries SET status = 'sending' WHERE id = ?").run(candidate.id);
      }
    };
    const due = (skip: string[], n: number) => sql<[number, string, number], { id: string; target: string }>(db, DUE_IDS).all(now, JSON.stringify(skip), n);
    // Look before taking the write lock: an idle poll must not open a write transaction.
    const anyDue = sql<[number], { id: string }>(db, "SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ? LIMIT 1").get(now);
    const more = anyDue === undefined ? false : transaction(db, () => {
      const first = due([], free);
      pick(first);
      if (rows.length < free && skipped && now - this.lastDeepScan >= poll) {
        // Targets at their concurrency limit hold the oldest due rows: look past them, at most
        // once per poll interval (the skip can cost a scan of their backlog).
        this.lastDeepScan = now;
        const saturated = [...counts].filter(([, n]) => n >= limit).map(([target]) => target);
        pick(due(saturated, free - rows.length));
      }
      return first.length === free && rows.length < free;
    });
    for (const row of rows) this.launch(row);
    if (rows.length === free || more || skipped) return poll; // finishing attempts wake the loop
    const next = sql<[], { at: number | null }>(db, "SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'pending'").get()?.at;
    return next === null || next === undefined ? poll : Math.min(poll, Math.max(0, next - now));
  }

  /** Starts one claimed attempt and keeps the in-flight counts. */
  private launch(row: DueRow): void {
    this.perTarget.set(row.target, (this.perTarget.get(row.target) ?? 0) + 1);
    const attempt = this.attempt(row)
      .catch((error: unknown) => this.log.error({ err: error }, 'webhook delivery attempt failed unexpectedly'))
      .finally(() => {
        this.inflight.delete(row.id);
        const left = (this.perTarget.get(row.target) ?? 1) - 1;
        if (left > 0) this.perTarget.set(row.target, left);
        else this.perTarget.delete(row.target);
        this.loop.wake();
      });
    this.inflight.set(row.id, attempt);
  }

  private async attempt(row: DueRow): Promise<void> {
    const { config, clock } = this.svc;
    const number = row.attempts + 1;
    const started = clock.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    let verdict: AttemptVerdict;
    let retryAfterMs: number | undefined;
    try {
      if (row.event_id === null || row.url === null) throw new BlockedTargetError('the event or target no longer exists');
      const body = deliveryBody({
        id: row.event_id,
        type: row.event_type,
        workspaceId: row.workspace_id!,
        createdAt: row.event_at!,
        payloadJson: row.payload_json!,
      });
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': DELIVERY_USER_AGENT,
        'x-service-event': row.event_type,
        'x-service-delivery': row.id,
        'x-service-attempt': String(number),
      };
      if (row.secret_sealed !== null) headers['x-service-signature'] = signPayload(body, this.svc.secretBox.open(row.secret_sealed));
      const res = await this.http.request(row.url, {
        method: 'POST',
        headers,
        body,
        timeoutMs: config.webhooks.timeoutMs,
        signal: this.abort.signal,
      });
      statusCode = res.statusCode;
      verdict = verdictForStatus(statusCode);
      if (verdict === 'retry') retryAfterMs = parseRetryAfter(res.headers['retry-after'], clock.now());
    } catch (caught) {
      if (this.stopping) {
        // Shutdown interrupted the attempt: leave it queued, unrecorded, for the next start.
        sql(this.svc.db, "UPDATE webhook_deliveries SET status = 'pending' WHERE id = ? AND status = 'sending'").run(row.id);
        return;
      }
      error = describe(caught);
      const permanent = caught instanceof BlockedTargetError || (caught as Error)?.name === 'SecretUnreadableError';
      verdict = permanent ? 'failed' : 'retry';
    }
    this.record(row.id, number, started, statusCode, error, verdict, retryAfterMs);
  }

  /** Queues an attempt's outcome; outcomes are written together on the next turn of the event loop. */
  private record(
    id: string,
    number: number,
    started: number,
    statusCode: number | null,
    error: string | null,
    verdict: AttemptVerdict,
    retryAfterMs: number | undefined,
  ): void {
    const { clock, config } = this.svc;
    const now = clock.now();
    const final = verdict === 'retry' && number >= config.webhooks.maxAttempts ? 'failed' : verdict;
    const nextAt = final === 'retry' ? now + deliveryDelayMs(number, config.webhooks, Math.random(), retryAfterMs) : null;
    this.outcomes.push({ id, number, started, now, statusCode, error, status: final === 'retry' ? 'pending' : final, nextAt });
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes the queued outcomes in one transaction. */
  private flush(): void {
    this.flushScheduled = false;
    const outcomes = this.outcomes.splice(0);
    if (outcomes.length === 0) return;
    const { db } = this.svc;
    try {
      transaction(db, () => {
        for (const o of outcomes) {
          const updated = sql(
            db,
            `UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_status_code = ?, last_error = ?, completed_at = ?
              WHERE id = ? AND status = 'sending'`,
          ).run(o.status, o.number, o.nextAt, o.statusCode, o.error, o.status === 'pending' ? null : o.now, o.id);
          if (updated.changes === 0) continue; // deleted with its webhook meanwhile
          sql(db, 'INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error) VALUES (?, ?, ?, ?, ?, ?)').run(
            o.id,
            o.number,
            o.started,
            Math.max(0, o.now - o.started),
            o.statusCode,
            o.error,
          );
        }
      });
    } catch (error) {
      // The rows stay 'sending' and are sent again after the next start (at-least-once).
      this.log.error({ err: error }, 'recording webhook delivery attempts failed');
    }
    this.loop.wake();
  }
}
