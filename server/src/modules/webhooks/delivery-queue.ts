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
  attempts: number;
  event_type: string;
  event_id: string | null;
  workspace_id: string | null;
  payload_json: string | null;
  event_at: number | null;
  url: string | null;
  secret_sealed: string | null;
}

/**
 * Due deliveries, oldest first: id and target. Parameters: now, JSON array of targets to skip,
 * limit. The JSON array is read by each store's own function.
 */
const DUE_IDS: Record<Dialect, string> = {
  sqlite: `SELECT d.id, coalesce(d.webhook_id, d.subscription_id) AS target FROM webhook_deliveries d
  WHERE d.status = 'pending' AND d.next_attempt_at <= ?
    AND coalesce(d.webhook_id, d.subscription_id) NOT IN (SELECT value FROM json_each(?))
  ORDER BY d.next_attempt_at LIMIT ?`,
  postgres: `SELECT d.id, coalesce(d.webhook_id, d.subscription_id) AS target FROM webhook_deliveries d
  WHERE d.status = 'pending' AND d.next_attempt_at <= ?
    AND coalesce(d.webhook_id, d.subscription_id) NOT IN (SELECT jsonb_array_elements_text(CAST(? AS jsonb)))
  ORDER BY d.next_attempt_at LIMIT ?`,
};

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

/**
 * Puts attempts left in flight (`sending`) by processes that are gone back in the queue: on
 * SQLite, whose one process calls it before it sends anything, every one; on PostgreSQL those
 * whose sender holds no presence lock (platform/db/postgres/presence.ts).
 */
export function* requeueAbandoned(q: Sql): Query<void> {
  const gone = q.dialect === 'postgres' ? ` AND (claimed_by IS NULL OR ${ownerGone('claimed_by')})` : '';
  yield* q.run(`UPDATE webhook_deliveries SET status = 'pending', claimed_by = NULL WHERE status = 'sending'${gone}`);
}

/** Rows `claimed_by` this sender and `sending` whose id is not in the JSON array `keep` (parameters: sender, keep). */
const OWN_STALE: Record<Dialect, string> = {
  sqlite: `UPDATE webhook_deliveries SET status = 'pending', claimed_by = NULL
    WHERE status = 'sending' AND claimed_by = ? AND id NOT IN (SELECT value FROM json_each(?))`,
  postgres: `UPDATE webhook_deliveries SET status = 'pending', claimed_by = NULL
    WHERE status = 'sending' AND claimed_by = ? AND id NOT IN (SELECT jsonb_array_elements_text(CAST(? AS jsonb)))`,
};

/**
 * Puts back in the queue the rows this live process holds `sending` but neither sends nor writes
 * the outcome of (`keep`): left behind by a failure. They are sent again (at-least-once).
 * @returns how many rows went back.
 */
export function* requeueOwnStale(q: Sql, sender: string, keep: readonly string[]): Query<number> {
  return (yield* q.run(OWN_STALE[q.dialect], [sender, JSON.stringify(keep)])).changes;
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

/** What one claim found: the rows claimed, and whether due rows were passed over. */
export interface Claim {
  rows: DueRow[];
  /** Due rows were left because their target was at its concurrency limit. */
  skipped: boolean;
  /** The first look filled every free slot's worth of candidates but not every slot: more may be due. */
  more: boolean;
  /** The deep scan (past saturated targets) ran. */
  deepScanned: boolean;
}

/**
 * Claims up to `free` due rows in one transaction, marking them `sending` by `sender`, with at most
 * `limit` attempts per target counting those already in flight (in any process). Looks past
 * targets at their limit (a deep scan) only when `deepScanAllowed`. Processes claiming at once
 * conflict and one runs again (PostgreSQL's SERIALIZABLE), so no row is claimed twice.
 */
export function* claimDue(q: Sql, now: number, free: number, limit: number, sender: string, deepScanAllowed: boolean): Query<Claim> {
  return yield* q.transaction(function* (tx) {
    // Read afresh by every run of the body (PostgreSQL may run it again).
    const counts = yield* inFlightByTarget(tx);
    const rows: DueRow[] = [];
    let skipped = false;
    const pick = function* (candidates: { id: string; target: string }[]): Query<void> {
      for (const candidate of candidates) {
        if (rows.length === free) return;
        const n = counts.get(candidate.target) ?? 0;
        if (n >= limit) {
          skipped = true;
          continue;
        }
        counts.set(candidate.target, n + 1);
        rows.push((yield* tx.get<DueRow>(DUE_ROW, [candidate.id]))!);
        yield* tx.run("UPDATE webhook_deliveries SET status = 'sending', claimed_by = ? WHERE id = ?", [sender, candidate.id]);
      }
    };
    const due = (skip: string[], n: number) => tx.all<{ id: string; target: string }>(DUE_IDS[tx.dialect], [now, JSON.stringify(skip), n]);
    const first = yield* due([], free);
    yield* pick(first);
    let deepScanned = false;
    if (rows.length < free && skipped && deepScanAllowed) {
      // Targets at their concurrency limit hold the oldest due rows: look past them, at most
      // once per poll interval (the skip can cost a scan of their backlog).
      deepScanned = true;
      const saturated = [...counts].filter(([, n]) => n >= limit).map(([target]) => target);
      yield* pick(yield* due(saturated, free - rows.length));
    }
    return { rows, skipped, more: first.length === free && rows.length < free, deepScanned };
  });
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
        `UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_status_code = ?, last_error = ?, completed_at = ?, claimed_by = NULL
          WHERE id = ? AND status = 'sending' AND claimed_by = ?`,
        [o.status, o.number, o.nextAt, o.statusCode, o.error, o.status === 'pending' ? null : o.now, o.id, sender],
      );
      if (updated.changes === 0) continue;
      yield* tx.run(
        'INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error) VALUES (?, ?, ?, ?, ?, ?)',
        [o.id, o.number, o.started, Math.max(0, o.now - o.started), o.statusCode, o.error],
      );
    }
  });
}
