import type { Dialect, Query, Sql } from '../../platform/db/query';
import { ownerGone } from '../../platform/db/postgres/presence';

/**
 * The queries of the delivery worker (`delivery-worker.ts`, README "Events and webhooks",
 * "Delivery") over `webhook_deliveries` and `webhook_attempts`: claiming due rows, writing the
 * outcomes of attempts and putting rows left `sending` back in the queue.
 */

/** A claimed delivery with what its attempt needs (the event and the target). */
export interface DueRow {
  id: string;
  /** The registration or subscription id (per-target concurrency). */
  target: string;
  /** This attempt's number (1-based): counted by the claim, before anything is sent. */
  attempt: number;
  event_type: string;
  event_id: string | null;
  workspace_id: string | null;
  payload_json: string | null;
  event_at: number | null;
  url: string | null;
  secret_sealed: string | null;
}

/** `IN (…)` over the JSON array of strings bound at its place, read by each store's own function. */
const IN_JSON: Record<Dialect, string> = {
  sqlite: 'IN (SELECT value FROM json_each(?))',
  postgres: 'IN (SELECT jsonb_array_elements_text(CAST(? AS jsonb)))',
};

/**
 * Due deliveries, oldest first: id and target, leaving out targets at their concurrency limit.
 * Parameters: now, JSON array of targets to skip, limit.
 */
const DUE_IDS = (dialect: Dialect) => `SELECT d.id, coalesce(d.webhook_id, d.subscription_id) AS target FROM webhook_deliveries d
  WHERE d.status = 'pending' AND d.next_attempt_at <= ?
    AND coalesce(d.webhook_id, d.subscription_id) NOT ${IN_JSON[dialect]}
  ORDER BY d.next_attempt_at LIMIT ?`;

/** Claims the pending rows whose ids are in the JSON array, counting their attempt; returns the ids claimed. Parameters: sender, now, ids. */
const CLAIM = (
  dialect: Dialect,
) => `UPDATE webhook_deliveries SET status = 'sending', claimed_by = ?, claimed_at = ?, attempts = attempts + 1
  WHERE status = 'pending' AND id ${IN_JSON[dialect]} RETURNING id`;

/** What an attempt needs, for the deliveries whose ids are in the JSON array. */
const DUE_ROWS = (
  dialect: Dialect,
) => `SELECT d.id, coalesce(d.webhook_id, d.subscription_id) AS target, d.attempts AS attempt, d.event_type,
        e.id AS event_id, e.workspace_id, e.payload_json, e.created_at AS event_at,
        coalesce(w.url, s.url) AS url, w.secret_sealed
   FROM webhook_deliveries d
   LEFT JOIN events e ON e.seq = d.event_seq
   LEFT JOIN webhooks w ON w.id = d.webhook_id
   LEFT JOIN webhook_subscriptions s ON s.id = d.subscription_id
  WHERE d.id ${IN_JSON[dialect]}
  ORDER BY d.next_attempt_at`;

/** One finished attempt, waiting to be written. */
export interface Outcome {
  id: string;
  number: number;
  started: number;
  now: number;
  statusCode: number | null;
  error: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  nextAt: number | null;
}

/** Why an attempt that was claimed has no outcome, as its `webhook_attempts` row says (`error`). */
export const INTERRUPTED = {
  /** Its sender ended (killed, stalled past its lease, its connection lost) before recording the outcome. */
  senderGone: 'interrupted: the sending process ended before recording the outcome',
  /** A live sender lost track of it (its outcome was not written). */
  lost: 'interrupted: the outcome of the attempt was not recorded',
  /** The server stopped while the attempt was in flight. */
  stopped: 'interrupted: the server stopped during the attempt',
} as const;

/**
 * Puts back in the queue the rows `sending` that match `where` (a condition on
 * `webhook_deliveries` with its parameters), each logging its interrupted attempt in
 * `webhook_attempts` (from its claim, without a status, `error` = `reason`): the claim counted
 * the attempt, which may or may not have reached the receiver, so the next one carries the next
 * number. A row that used its last attempt (`maxAttempts`) is failed instead.
 * @returns how many rows went back (or failed).
 */
function* requeueWhere(q: Sql, where: string, params: unknown[], reason: string, maxAttempts: number, now: number): Query<number> {
  const set = `status = CASE WHEN attempts >= ? THEN 'failed' ELSE 'pending' END, claimed_by = NULL, last_error = ?,
      completed_at = CASE WHEN attempts >= ? THEN CAST(? AS BIGINT) ELSE NULL END`;
  const setParams = [maxAttempts, reason, maxAttempts, now];
  const log = `INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error)`;
  const logged = `coalesce(claimed_at, ?), CASE WHEN ? > coalesce(claimed_at, ?) THEN ? - coalesce(claimed_at, ?) ELSE 0 END, CAST(NULL AS BIGINT), ?`;
  const loggedParams = [now, now, now, now, now, reason];
  if (q.dialect === 'postgres') {
    // One statement: the rows logged are exactly the rows moved (a condition such as ownerGone is read once).
    const row = yield* q.get<{ n: number }>(
      `WITH moved AS (UPDATE webhook_deliveries SET ${set} WHERE status = 'sending' AND ${where} RETURNING id, attempts, claimed_at),
       logged AS (${log} SELECT id, attempts, ${logged} FROM moved ON CONFLICT DO NOTHING)
       SELECT CAST(count(*) AS INTEGER) AS n FROM moved`,
      [...setParams, ...params, ...loggedParams],
    );
    return row?.n ?? 0;
  }
  // SQLite's one writer: the two statements see the same rows.
  return yield* q.transaction(function* (tx) {
    yield* tx.run(
      `${log} SELECT id, attempts, ${logged} FROM webhook_deliveries WHERE status = 'sending' AND ${where} ON CONFLICT DO NOTHING`,
      [...loggedParams, ...params],
    );
    return (yield* tx.run(`UPDATE webhook_deliveries SET ${set} WHERE status = 'sending' AND ${where}`, [...setParams, ...params])).changes;
  });
}

/**
 * Puts attempts left in flight (`sending`) by processes that are gone back in the queue: on
 * SQLite, whose one process calls it before it sends anything, every one; on PostgreSQL those
 * whose sender holds no presence lock (platform/db/postgres/presence.ts). See {@link requeueWhere}.
 * @returns how many rows went back.
 */
export function* requeueAbandoned(q: Sql, maxAttempts: number, now: number): Query<number> {
  const gone = q.dialect === 'postgres' ? `(claimed_by IS NULL OR ${ownerGone('claimed_by')})` : '1 = 1';
  return yield* requeueWhere(q, gone, [], INTERRUPTED.senderGone, maxAttempts, now);
}

/**
 * Puts back in the queue the rows this live process holds `sending` but neither sends nor writes
 * the outcome of (`keep`): left behind by a failure. They are sent again, under the next attempt
 * number (see {@link requeueWhere}).
 * @returns how many rows went back.
 */
export function* requeueOwnStale(q: Sql, sender: string, keep: readonly string[], maxAttempts: number, now: number): Query<number> {
  return yield* requeueWhere(
    q,
    `claimed_by = ? AND id NOT ${IN_JSON[q.dialect]}`,
    [sender, JSON.stringify(keep)],
    INTERRUPTED.lost,
    maxAttempts,
    now,
  );
}

/** Puts back in the queue one row this process claimed, whose attempt the server's stop cut off (see {@link requeueWhere}). */
export function* requeueStopped(q: Sql, sender: string, id: string, maxAttempts: number, now: number): Query<number> {
  return yield* requeueWhere(q, 'claimed_by = ? AND id = ?', [sender, id], INTERRUPTED.stopped, maxAttempts, now);
}

/** Longest a statement of a write of outcomes may take (waiting for a lock included) on PostgreSQL, in ms. */
export const OUTCOME_STATEMENT_TIMEOUT_MS = 5000;

/** Attempts in flight per target, over every process. */
function* inFlightByTarget(q: Sql): Query<Map<string, number>> {
  const rows = yield* q.all<{ target: string; n: number }>(
    "SELECT coalesce(webhook_id, subscription_id) AS target, CAST(count(*) AS INTEGER) AS n FROM webhook_deliveries WHERE status = 'sending' GROUP BY coalesce(webhook_id, subscription_id)",
  );
  return new Map(rows.map((row) => [row.target, row.n]));
}

/** PostgreSQL: the advisory lock of claims (platform/db/query.ts `TransactionOptions.lock`): claims take turns instead of colliding. */
const CLAIM_LOCK = 'taskspace:webhook-claims';

/** Most looks for due rows per claim: each one leaves out the targets the one before filled. */
const CLAIM_ROUNDS = 4;

/**
 * Claims up to `free` due rows in one transaction, oldest due first, marking them `sending` by
 * `sender` at `now` and counting their attempt (`attempts` + 1, before anything is sent: an
 * attempt is never made twice under one number), with at most `limit` attempts per target
 * counting those already in flight (in any process). Targets at their limit are left out of the
 * look for due rows, so a busy receiver's backlog never hides another target's due rows. On
 * PostgreSQL claims take turns on an advisory lock and run at READ COMMITTED: each reads what
 * the claims before it committed, and none collides (a claim never has to run again).
 */
export function* claimDue(q: Sql, now: number, free: number, limit: number, sender: string): Query<DueRow[]> {
  return yield* q.transaction(
    function* (tx) {
      const counts = yield* inFlightByTarget(tx);
      const claimed: string[] = [];
      for (let round = 0; round < CLAIM_ROUNDS && claimed.length < free; round++) {
        const saturated = [...counts].filter(([, n]) => n >= limit).map(([target]) => target);
        const wanted = free - claimed.length;
        const candidates = yield* tx.all<{ id: string; target: string }>(DUE_IDS(tx.dialect), [now, JSON.stringify(saturated), wanted]);
        const picked: string[] = [];
        let passedOver = false;
        for (const candidate of candidates) {
          const n = counts.get(candidate.target) ?? 0;
          if (n >= limit) {
            passedOver = true;
            continue;
          }
          counts.set(candidate.target, n + 1);
          picked.push(candidate.id);
        }
        // Only what this statement claimed (a row changed since the look stays as it is).
        if (picked.length > 0)
          claimed.push(...(yield* tx.all<{ id: string }>(CLAIM(tx.dialect), [sender, now, JSON.stringify(picked)])).map((r) => r.id));
        // Every candidate fitted: either the slots are full or nothing more is due.
        if (!passedOver) break;
      }
      if (claimed.length === 0) return [];
      return yield* tx.all<DueRow>(DUE_ROWS(tx.dialect), [JSON.stringify(claimed)]);
    },
    { isolation: 'read committed', lock: CLAIM_LOCK },
  );
}

/**
 * Writes finished attempts: each delivery's new state and its attempt row, in one transaction; only
 * for rows `sender` still holds (a row deleted with its webhook, or put back in the queue because
 * this process was taken for gone, is left alone).
 */
export function* recordOutcomes(q: Sql, outcomes: readonly Outcome[], sender: string): Query<void> {
  yield* q.transaction(function* (tx) {
    // Bounded: a write waiting on a lock fails and is tried again (DeliveryWorker.flush) rather than hang.
    if (tx.dialect === 'postgres') yield* tx.run(`SET LOCAL statement_timeout = ${OUTCOME_STATEMENT_TIMEOUT_MS}`);
    for (const o of outcomes) {
      const updated = yield* tx.run(
        `UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?, last_status_code = ?, last_error = ?, completed_at = ?, claimed_by = NULL
          WHERE id = ? AND status = 'sending' AND claimed_by = ? AND attempts = ?`,
        [o.status, o.nextAt, o.statusCode, o.error, o.status === 'pending' ? null : o.now, o.id, sender, o.number],
      );
      if (updated.changes === 0) continue;
      yield* tx.run(
        'INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error) VALUES (?, ?, ?, ?, ?, ?)',
        [o.id, o.number, o.started, Math.max(0, o.now - o.started), o.statusCode, o.error],
      );
    }
  });
}
