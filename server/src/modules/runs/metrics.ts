import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { RUN_STATUSES, type RunStatus } from '@taskspace/engine';
import type { Actor } from '../../auth/tokens';
import { isoTime } from '../../platform/clock';
import type { Query, Sql } from '../../platform/db/query';
import { MetricsQuery, automationParams, metricsResponses } from './run-schemas';
import { badRequest } from '../../errors';
import type { Services } from '../../services';
import type { AutomationRuntime } from '../engine-host/runtime';
import { requireAutomation } from '../engine-host/automation-access';

/**
 * Run metrics of one automation (docs "Automations", "Metrics"), computed in SQL on either store:
 * its runs counted by status, the success rate, and the 50th and 95th percentile durations.
 * Test runs (and their replays) are left out: they measure the editor, not the automation.
 */

const STATUSES: readonly RunStatus[] = RUN_STATUSES;

/** The metrics of an automation's runs, as `GET /api/v1/automations/{id}/metrics` returns them. */
export interface AutomationMetrics {
  automationId: string;
  /** The start of the window (ISO 8601; runs created at or after it), absent for every kept run. */
  since?: string;
  /** Runs in the window. */
  total: number;
  /** Runs in the window by status (every status present, 0 when none). */
  counts: Record<RunStatus, number>;
  /** completed ÷ (completed + failed), 0..1; null when neither. */
  successRate: number | null;
  /**
   * Durations of the runs that ended completed or failed, start to end (waits included), in ms:
   * nearest-rank percentiles; null when there are none.
   */
  durationMs: { p50: number | null; p95: number | null };
}

/** The window's condition and its arguments. */
function windowOf(automationId: string, since: number | undefined): [string, unknown[]] {
  return since === undefined
    ? ['automation_id = ? AND test = 0', [automationId]]
    : ['automation_id = ? AND test = 0 AND created_at >= ?', [automationId, since]];
}

/** The percentile durations (ms) as the query returns them. */
type PercentileRow = { p50: number | null; p95: number | null };

/** Counts and percentiles of an automation's non-test runs created at or after `since` (ms; all when undefined). */
export function* runMetrics(q: Sql, automationId: string, since?: number): Query<Omit<AutomationMetrics, 'automationId' | 'since'>> {
  const [where, args] = windowOf(automationId, since);
  const rows = yield* q.all<{ status: RunStatus; n: number }>(
    `SELECT status, COUNT(*) AS n FROM automation_runs WHERE ${where} GROUP BY status`,
    args,
  );
  const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<RunStatus, number>;
  let total = 0;
  for (const row of rows) {
    counts[row.status] = (counts[row.status] ?? 0) + Number(row.n);
    total += Number(row.n);
  }
  // Nearest rank: the value at position ceil(p/100 * n) of the sorted durations, ceil as (p*n + 99) / 100 in integers.
  const pct = yield* q.get<PercentileRow>(
    `WITH d AS (SELECT finished_at - started_at AS ms FROM automation_runs
                 WHERE ${where} AND status IN ('completed', 'failed') AND started_at IS NOT NULL AND finished_at IS NOT NULL),
          r AS (SELECT ms, ROW_NUMBER() OVER (ORDER BY ms) AS rn, COUNT(*) OVER () AS n FROM d)
     SELECT MAX(CASE WHEN rn = (50 * n + 99) / 100 THEN ms END) AS p50,
            MAX(CASE WHEN rn = (95 * n + 99) / 100 THEN ms END) AS p95
       FROM r`,
    args,
  );
  const decided = counts.completed + counts.failed;
  return {
    total,
    counts,
    successRate: decided === 0 ? null : counts.completed / decided,
    durationMs: { p50: pct?.p50 == null ? null : Number(pct.p50), p95: pct?.p95 == null ? null : Number(pct.p95) },
  };
}

/**
 * The run metrics of an automation (any member), over runs created at or after `since` (ISO 8601).
 * @throws ServiceError 400 for a malformed `since`; 404.
 */
export async function automationMetrics(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  automationId: string,
  since?: string,
): Promise<AutomationMetrics> {
  await requireAutomation(svc, rt, actor, automationId, 'Viewer', 'reading metrics');
  let from: number | undefined;
  if (since !== undefined) {
    from = Date.parse(since);
    if (Number.isNaN(from)) throw badRequest('since', 'invalid_format', 'since must be an ISO 8601 date-time');
  }
  const metrics = await svc.store.run(runMetrics(svc.store.sql, automationId, from));
  return { automationId, ...(from === undefined ? {} : { since: isoTime(from) }), ...metrics };
}

/** Registers `GET /automations/{id}/metrics` on the automations route plugin. */
export function metricsRoute(plugin: FastifyInstance, svc: Services, rt: AutomationRuntime): void {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/automations/:automationId/metrics',
    {
      schema: {
        tags: ['automations'],
        summary: 'Run metrics (any member): counts by status, success rate, p50/p95 duration of runs created since `since`',
        params: automationParams,
        querystring: MetricsQuery,
        response: metricsResponses,
      },
    },
    async (request) => ({
      ok: true,
      item: await automationMetrics(svc, rt, request.actor, request.params.automationId, request.query.since),
    }),
  );
}
