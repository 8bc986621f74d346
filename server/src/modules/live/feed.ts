import { FINAL_STATUSES, type RunStatus } from '@taskspace/engine';
import type { Dialect, Query, Sql } from '../../platform/db/query';

/**
 * Live updates (docs "Web app", "Live updates"): what changed for one signed-in person since the
 * last look, found by comparing small fingerprints kept in the database rather than by listening
 * to one process, so a change made by any process (or by an automation run) is seen:
 * - a project of the person's workspaces whose `projects.version` moved (the database bumps it on
 *   every task change) → `project`;
 * - a run of the person's workspaces that was created, changed status or journalled a step → `run`.
 */

/** One change, as sent on the stream: the SSE event name and its JSON data. */
export type LiveEvent =
  | { event: 'project'; data: { projectId: string; version: number } }
  | { event: 'run'; data: { runId: string; automationId: string; status: string } };

interface RunRow {
  seq: number;
  id: string;
  automationId: string;
  status: RunStatus;
  /** Steps, attempts, succeeded steps and the last finish time, joined: changes whenever the journal does. */
  fingerprint: string;
}

/**
 * New runs, unfinished runs and the runs reported last time, each found through an index (never a
 * scan of every run), with their fingerprints. Parameters: the last run `seq` seen, a JSON array of
 * the run ids reported last time, the user id. On SQLite, INDEXED BY and CROSS JOIN hold the
 * planner to those indexes; PostgreSQL has neither (its planner picks the partial indexes of
 * `automation_runs` by itself), and reads the JSON array with `jsonb_array_elements_text`.
 */
const CHANGED_RUNS: Record<Dialect, string> = {
  sqlite: `WITH candidates(seq) AS (
         SELECT seq FROM automation_runs WHERE seq > ?
         UNION SELECT seq FROM automation_runs WHERE status IN ('queued', 'running')
         UNION SELECT seq FROM automation_runs INDEXED BY automation_runs_wake WHERE status = 'waiting'
         UNION SELECT seq FROM automation_runs WHERE id IN (SELECT value FROM json_each(?))
       )
       SELECT r.seq, r.id, r.automation_id AS "automationId", r.status,
              (SELECT COUNT(*) || ':' || COALESCE(SUM(s.attempts), 0) || ':' || COALESCE(SUM(s.status = 'succeeded'), 0) || ':' || COALESCE(MAX(s.finished_at), 0)
                 FROM automation_steps s WHERE s.run_id = r.id) AS fingerprint
         FROM candidates c CROSS JOIN automation_runs r ON r.seq = c.seq
         JOIN workspace_members m ON m.workspace_id = r.workspace_id AND m.user_id = ?`,
  postgres: `WITH candidates(seq) AS (
         SELECT seq FROM automation_runs WHERE seq > ?
         UNION SELECT seq FROM automation_runs WHERE status IN ('queued', 'running')
         UNION SELECT seq FROM automation_runs WHERE status = 'waiting'
         UNION SELECT seq FROM automation_runs WHERE id IN (SELECT jsonb_array_elements_text(CAST(? AS jsonb)))
       )
       SELECT r.seq, r.id, r.automation_id AS "automationId", r.status,
              (SELECT COUNT(*) || ':' || COALESCE(SUM(s.attempts), 0) || ':' || COALESCE(SUM(CASE WHEN s.status = 'succeeded' THEN 1 ELSE 0 END), 0) || ':' || COALESCE(MAX(s.finished_at), 0)
                 FROM automation_steps s WHERE s.run_id = r.id) AS fingerprint
         FROM candidates c JOIN automation_runs r ON r.seq = c.seq
         JOIN workspace_members m ON m.workspace_id = r.workspace_id AND m.user_id = ?`,
};

/**
 * The changes of one person's feed. Holds what it last reported; one instance per stream, opened
 * with {@link LiveFeed.open}. Its operations keep state between calls: run one at a time.
 */
export class LiveFeed {
  private readonly projects = new Map<string, number>();
  /** Runs reported and not yet seen final, by id: their last fingerprint. */
  private readonly runs = new Map<string, string>();
  private lastRunSeq = 0;
  private primed = false;

  private constructor(private readonly userId: string) {}

  /**
   * A feed for `userId`, primed with the current state: a client reads fresh data when its stream
   * opens, so only later changes are news.
   */
  static *open(q: Sql, userId: string): Query<LiveFeed> {
    const feed = new LiveFeed(userId);
    feed.lastRunSeq = (yield* q.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM automation_runs'))?.seq ?? 0;
    yield* feed.changes(q);
    feed.primed = true;
    return feed;
  }

  /** What changed since the last call (the first call, made by {@link LiveFeed.open}, reports nothing). */
  *changes(q: Sql): Query<LiveEvent[]> {
    const baseline = !this.primed;
    const out: LiveEvent[] = [];
    const projects = yield* q.all<{ id: string; version: number }>(
      'SELECT p.id, p.version FROM projects p JOIN workspace_members m ON m.workspace_id = p.workspace_id AND m.user_id = ?',
      [this.userId],
    );
    for (const p of projects) {
      const before = this.projects.get(p.id);
      this.projects.set(p.id, p.version);
      if (!baseline && before !== p.version) out.push({ event: 'project', data: { projectId: p.id, version: p.version } });
    }
    const runs = yield* q.all<RunRow>(CHANGED_RUNS[q.dialect], [this.lastRunSeq, JSON.stringify([...this.runs.keys()]), this.userId]);
    for (const r of runs) {
      this.lastRunSeq = Math.max(this.lastRunSeq, r.seq);
      const key = `${r.status}|${r.fingerprint}`;
      const before = this.runs.get(r.id);
      if (FINAL_STATUSES.has(r.status)) this.runs.delete(r.id);
      else this.runs.set(r.id, key);
      if (!baseline && before !== key) out.push({ event: 'run', data: { runId: r.id, automationId: r.automationId, status: r.status } });
    }
    return out;
  }
}
