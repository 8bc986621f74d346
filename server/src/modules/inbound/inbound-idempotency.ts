import { createHash } from 'node:crypto';
import type { Query, Sql } from '../../platform/db/query';
import { ServiceError } from '../../errors';

/**
 * Idempotency keys of inbound calls (docs "Automations", "Inbound webhooks"): a call with an
 * `Idempotency-Key` stores the SHA-256 of its body on its run (`automation_runs.request_hash`);
 * the same key again with the same body gets the first call's run, with another body 422
 * IDEMPOTENCY_KEY_REUSED (as Stripe answers), since silently answering with the first run would
 * drop the second payload.
 */

/** SHA-256 (hex) of an inbound call's parsed body, as JSON. */
export function requestHashOf(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(body) ?? 'null')
    .digest('hex');
}

/**
 * Binds a call's body hash to the run its Idempotency-Key maps to, in the intake's transaction:
 * recorded on a run just created; compared with the one recorded on an existing run (a run
 * recorded before hashes were kept has none and is accepted).
 * @throws ServiceError 422 IDEMPOTENCY_KEY_REUSED when the existing run was started by another body.
 */
export function* bindRequestHash(q: Sql, runId: string, created: boolean, hash: string): Query<void> {
  if (created) {
    yield* q.run('UPDATE automation_runs SET request_hash = ? WHERE id = ?', [hash, runId]);
    return;
  }
  const row = yield* q.get<{ request_hash: string | null }>('SELECT request_hash FROM automation_runs WHERE id = ?', [runId]);
  if (row && row.request_hash !== null && row.request_hash !== hash) {
    throw new ServiceError(
      422,
      'IDEMPOTENCY_KEY_REUSED',
      'this Idempotency-Key was already used with a different body; use a new key for a new request',
      {
        field: 'Idempotency-Key',
        reason: 'reused_with_different_body',
      },
    );
  }
}
