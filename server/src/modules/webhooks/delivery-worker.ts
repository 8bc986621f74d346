import type { Services } from '../../services';
import { BlockedTargetError, type GuardedHttp } from '../../platform/guarded-http';
import { WorkerLoop, type WorkerLog } from '../../platform/worker-loop';
import { DEFAULT_WORKER_ID, parseRetryAfter } from '@taskspace/engine';
import { deliveryDelayMs, verdictForStatus, type AttemptVerdict } from './delivery-verdicts';
import { signPayload } from './signature';
import { isRetryableConflict } from '../../platform/db/query';
import { claimDue, recordOutcomes, requeueAbandoned, requeueOwnStale, requeueStopped, type DueRow, type Outcome } from './delivery-queue';

export { OUTCOME_STATEMENT_TIMEOUT_MS } from './delivery-queue';

/**
 * The delivery worker (README "Events and webhooks", "Delivery"): sends due `webhook_deliveries` rows,
 * oldest due first, up to `config.webhooks.concurrency` at once per process and
 * `concurrencyPerTarget` to any one registration or subscription (counted over every process),
 * and records each attempt. Every `all` and `worker` process runs one (docs "Operations", "Roles").
 *
 * Durability: a row is marked `sending`, with its sender's worker id (`claimed_by`), while its
 * attempt is in flight, and gets its outcome in one transaction afterwards, written only by that
 * sender. The claim counts the attempt (`attempts` + 1) before anything is sent, so no two
 * requests of a delivery carry the same `X-Service-Attempt`: an attempt cut off is logged as
 * interrupted when its row goes back to the queue, and the next one carries the next number.
 * A write of outcomes that fails (a serialization failure past its retries, a lock held past
 * `OUTCOME_STATEMENT_TIMEOUT_MS` of `delivery-queue.ts`, the database away) is tried again, with
 * a growing wait, until it lands: a row must not stay `sending` (it counts against its target's
 * limit). When the process dies mid-attempt, the row is still `sending`; it goes back to the
 * queue — on SQLite at the first step after {@link DeliveryWorker.start}, before any claim; on
 * PostgreSQL once its sender's presence lock is gone (checked at start and every
 * {@link REQUEUE_EVERY_MS}) — so the delivery is sent again, as its next attempt (at-least-once:
 * receivers de-duplicate by `X-Service-Delivery`). A live process also puts back, every
 * {@link REQUEUE_EVERY_MS}, the rows it holds `sending` that it is neither sending nor writing
 * the outcome of (lost by a failure).
 *
 * Request: `POST <url>` with body `{"id","type","workspaceId","timestamp","payload"}` and headers
 * `Content-Type: application/json`, `User-Agent`, `X-Service-Event`, `X-Service-Delivery`,
 * `X-Service-Attempt` and, for signed registrations, `X-Service-Signature: sha256=<hex>` over
 * exactly the bytes sent.
 */

/** The User-Agent of every delivery. */
export const DELIVERY_USER_AGENT = 'Taskspace-Webhooks/1';

/** The delivery body for an event: `{id, type, workspaceId, timestamp, payload}` (payload bytes as stored). */
export function deliveryBody(event: { id: string; type: string; workspaceId: string; createdAt: number; payloadJson: string }): string {
  const head = JSON.stringify({
    id: event.id,
    type: event.type,
    workspaceId: event.workspaceId,
    timestamp: new Date(event.createdAt).toISOString(),
  });
  return `${head.slice(0, -1)},"payload":${event.payloadJson}}`;
}

function describe(error: unknown): string {
  const e = error as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code ?? e.name ?? 'Error';
  const message =
    e.cause?.message && e.cause.message !== e.message ? `${e.message ?? ''} (${e.cause.message})` : (e.message ?? String(error));
  return `${code}: ${message}`.slice(0, 500);
}

/** How often a PostgreSQL process looks for attempts left in flight by processes that are gone, in ms. */
const REQUEUE_EVERY_MS = 2000;

/** First wait before a failed write of outcomes is tried again, in ms; it doubles up to {@link OUTCOME_RETRY_MAX_MS}. */
const OUTCOME_RETRY_BASE_MS = 50;
const OUTCOME_RETRY_MAX_MS = 2000;

/** Tries of a failed write of outcomes while the worker stops (then the rows are left to the next start). */
const OUTCOME_TRIES_WHEN_STOPPING = 5;

/** Sends queued deliveries; see the module comment. */
export class DeliveryWorker {
  private readonly inflight = new Map<string, Promise<void>>();
  /** Finished attempts waiting to be written (see {@link DeliveryWorker.flush}). */
  private outcomes: Outcome[] = [];
  private flushScheduled = false;
  /** The last write of outcomes (writes run one after another). */
  private flushing: Promise<void> = Promise.resolve();
  /** Ids of the attempts whose outcome is not written yet (queued, or being written). */
  private readonly unwritten = new Set<string>();
  /** When attempts left in flight by processes that are gone were last put back in the queue (0: not yet). */
  private lastRequeue = 0;
  /** Look for them at the next step, whenever the last look was ({@link DeliveryWorker.sweepSoon}). */
  private sweepNow = false;
  /** This process's id in `claimed_by`. */
  private readonly sender: string;
  private readonly abort = new AbortController();
  private readonly loop: WorkerLoop;
  private stopping = false;

  constructor(
    private readonly svc: Services,
    private readonly http: GuardedHttp,
    private readonly log: WorkerLog,
  ) {
    this.loop = new WorkerLoop('webhook delivery', () => this.step(), log);
    // SQLite's one process: the engine's default id, as its runs use.
    this.sender = svc.workerId ?? DEFAULT_WORKER_ID;
  }

  /** Starts sending; the first step re-queues attempts a previous process left in flight. */
  start(): void {
    this.loop.start();
  }

  /** Looks for due deliveries now. */
  wake(): void {
    this.loop.wake();
  }

  /**
   * Looks for attempts left in flight by processes that are gone at once rather than at the next
   * {@link REQUEUE_EVERY_MS}: this process took the lead over, so the last leader (killed, or
   * stalled and its connections ended) may have left some, which count against their targets' limits.
   */
  sweepSoon(): void {
    this.sweepNow = true;
    this.loop.wake();
  }

  /**
   * Stops claiming, aborts attempts in flight (they stay queued), waits for the step in progress
   * and the attempts to settle, then writes the outcomes still waiting.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    const stepping = this.loop.stop();
    this.abort.abort();
    await stepping;
    await Promise.allSettled([...this.inflight.values()]);
    await this.flush();
  }

  /** Claims due rows into free slots; resolves to the ms until the next look. */
  private async step(): Promise<number> {
    const { store, clock, config } = this.svc;
    const maxAttempts = config.webhooks.maxAttempts;
    // SQLite: once, before anything is sent; PostgreSQL: now and then, for every process that died.
    if (this.lastRequeue === 0 || this.sweepNow || Date.now() - this.lastRequeue >= REQUEUE_EVERY_MS) {
      this.sweepNow = false;
      if (this.lastRequeue === 0 || store.sql.dialect === 'postgres')
        await store.run(requeueAbandoned(store.sql, maxAttempts, clock.now()));
      // This process's own rows left `sending` by a failure: nothing is claimed between here and
      // the launch of what the claim below takes, so every row in flight here is in `inflight`.
      const freed = await store.run(
        requeueOwnStale(store.sql, this.sender, [...this.inflight.keys(), ...this.unwritten], maxAttempts, clock.now()),
      );
      if (freed > 0)
        this.log.warn(
          { worker: 'webhook delivery', deliveries: freed },
          'webhook deliveries left in flight by this process were put back in the queue',
        );
      this.lastRequeue = Date.now();
    }
    // On PostgreSQL at least every REQUEUE_EVERY_MS, for what dead processes left in flight.
    const poll = store.sql.dialect === 'postgres' ? Math.min(config.webhooks.pollMs, REQUEUE_EVERY_MS) : config.webhooks.pollMs;
    const free = config.webhooks.concurrency - this.inflight.size;
    if (free <= 0) return poll; // a finishing attempt wakes the loop
    const now = clock.now();
    const limit = config.webhooks.concurrencyPerTarget;
    // Look before taking the write lock: an idle poll must not open a write transaction.
    const anyDue = await store.run(
      store.sql.get<{ id: string }>("SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ? LIMIT 1", [now]),
    );
    let rows: DueRow[] = [];
    if (anyDue !== undefined) {
      try {
        rows = await store.run(claimDue(store.sql, now, free, limit, this.sender));
      } catch (error) {
        // A deadlock with another statement (claims themselves take turns): routine, not a failure; look again soon.
        if (!isRetryableConflict(error)) throw error;
        this.log.debug?.(
          { err: error, worker: 'webhook delivery' },
          'claiming webhook deliveries collided with another process; trying again',
        );
        return Math.min(poll, 50 + Math.random() * 100);
      }
    }
    for (const row of rows) this.launch(row);
    if (rows.length === free) return poll; // finishing attempts wake the loop
    // Due rows left now are of targets at their limit (a finishing attempt wakes the loop; another
    // process's, the poll): wait for the next retry to come due, or the poll.
    const next = (
      await store.run(
        store.sql.get<{ at: number | null }>(
          "SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at > ?",
          [now],
        ),
      )
    )?.at;
    return next === null || next === undefined ? poll : Math.min(poll, Math.max(0, next - now));
  }

  /** Starts one claimed attempt. */
  private launch(row: DueRow): void {
    const attempt = this.attempt(row)
      .catch((error: unknown) => this.log.error({ err: error }, 'webhook delivery attempt failed unexpectedly'))
      .finally(() => {
        this.inflight.delete(row.id);
        this.loop.wake();
      });
    this.inflight.set(row.id, attempt);
  }

  private async attempt(row: DueRow): Promise<void> {
    const { config, clock } = this.svc;
    const number = row.attempt;
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
        // Shutdown interrupted the attempt: logged as interrupted, the delivery is queued for its next attempt.
        const { store } = this.svc;
        await store.run(requeueStopped(store.sql, this.sender, row.id, config.webhooks.maxAttempts, clock.now()));
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
    this.unwritten.add(id);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => void this.flush());
    }
  }

  /**
   * Writes the queued outcomes in one transaction, after the writes queued before them; resolves
   * once written. A failed write is logged and tried again after a wait that doubles (from
   * {@link OUTCOME_RETRY_BASE_MS} to {@link OUTCOME_RETRY_MAX_MS}) until it lands; while the worker
   * stops, {@link OUTCOME_TRIES_WHEN_STOPPING} tries, then the rows are left `sending` and go back
   * to the queue after the next start or once this process is gone (sent again, at-least-once).
   */
  private flush(): Promise<void> {
    this.flushScheduled = false;
    const outcomes = this.outcomes.splice(0);
    const write = async (): Promise<void> => {
      if (outcomes.length === 0) return;
      const { store } = this.svc;
      for (let attempt = 1; ; attempt++) {
        try {
          await store.run(recordOutcomes(store.sql, outcomes, this.sender));
          if (attempt > 1)
            this.log.warn({ worker: 'webhook delivery', attempts: attempt }, 'recording webhook delivery attempts succeeded after failing');
          break;
        } catch (error) {
          if (this.stopping && attempt >= OUTCOME_TRIES_WHEN_STOPPING) {
            this.log.error(
              { err: error, attempts: attempt },
              'recording webhook delivery attempts failed; they are sent again after the next start',
            );
            break;
          }
          const waitMs = Math.min(OUTCOME_RETRY_MAX_MS, OUTCOME_RETRY_BASE_MS * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
          this.log.warn(
            { err: error, attempts: attempt, retryInMs: Math.round(waitMs) },
            'recording webhook delivery attempts failed; trying again',
          );
          await new Promise((resolve) => setTimeout(resolve, waitMs));
        }
      }
      for (const o of outcomes) this.unwritten.delete(o.id);
      this.loop.wake();
    };
    this.flushing = this.flushing.then(write);
    return this.flushing;
  }
}
