import type { Query, Sql } from '../../platform/db/query';

/**
 * Small lookups on `automation_runs` shared by the automation, run and inbound services. A leaf
 * module (it imports no other automation module) so that those services do not import each other.
 */

/** The replay of a run (the first, should there be several from before replays were limited), or undefined. */
export function* replayOfRun(q: Sql, runId: string): Query<string | undefined> {
  return (yield* q.get<{ id: string }>('SELECT id FROM automation_runs WHERE replay_of = ? ORDER BY seq LIMIT 1', [runId]))?.id;
}

/**
 * The run an accepted inbound call started (`requestId` from the intake's reply), for
 * `GET /api/v1/automations/{id}/runs?requestId=`: the newest run of that automation recorded for
 * the request id (a repeated Idempotency-Key has the first call's id). Undefined when the id is
 * not a request of that automation.
 */
export function* runIdOfInboundRequest(q: Sql, automationId: string, requestId: string): Query<string | undefined> {
  const row = yield* q.get<{ id: string }>(
    'SELECT id FROM automation_runs WHERE automation_id = ? AND dedupe_key = ? ORDER BY seq DESC LIMIT 1',
    [automationId, `inbound:${requestId}`],
  );
  return row?.id;
}
