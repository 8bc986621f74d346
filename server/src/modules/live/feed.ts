import { FINAL_STATUSES, type RunStatus } from '@taskspace/engine';
import type { Db } from '../../platform/db/connection';
import { sql } from '../../platform/db/statements';

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

/** The changes of one person's feed. Holds what it last reported; one instance per stream. */
export class LiveFeed {
  private readonly projects = new Map<string, number>();
  /** Runs reported and not yet seen final, by id: their last fingerprint. */
  private readonly runs = new Map<string, string>();
  private lastRunSeq: number;
  private primed = false;

  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {
    // The baseline: a client reads fresh data when its stream opens, so only later changes are news.
    this.lastRunSeq = sql<[], number | null>(db, 'SELECT MAX(seq) FROM automation_runs').pluck().get() ?? 0;
    this.changes();
    this.primed = true;
  }

  /** What changed since the last call (the first call, made by the constructor, reports nothing). */
  changes(): LiveEvent[] {
    const baseline = !this.primed;
    const out: LiveEvent[] = [];
    const projects = sql<[string], { id: string; version: number }>(
      this.db,
      'SELECT p.id, p.version FROM projects p JOIN workspace_members m ON m.workspace_id = p.workspace_id AND m.user_id = ?',
    ).all(this.userId);
    for (const p of projects) {
      const before = this.projects.get(p.id);
      this.projects.set(p.id, p.version);
      if (!baseline && before !== p.version) out.push({ event: 'project', data: { projectId: p.id, version: p.version } });
    }
    // New runs, unfinished runs and the runs reported last time, each found through an index (never a scan of every run;
    // INDEXED BY and CROSS JOIN hold SQLite's planner to that).
    const runs = sql<[number, string, string], RunRow>(
      this.db,
      `WITH candidates(seq) AS (
         SELECT seq FROM automation_runs WHERE seq > ?
         UNION SELECT seq FROM automation_runs WHERE status IN ('queued', 'running')
         UNION SELECT seq FROM automation_runs INDEXED BY automation_runs_wake WHERE status = 'waiting'
         UNION SELECT seq FROM automation_runs WHERE id IN (SELECT value FROM json_each(?))
       )
       SELECT r.seq, r.id, r.automation_id AS automationId, r.status,
              (SELECT COUNT(*) || ':' || COALESCE(SUM(s.attempts), 0) || ':' || COALESCE(SUM(s.status = 'succeeded'), 0) || ':' || COALESCE(MAX(s.finished_at), 0)
                 FROM automation_steps s WHERE s.run_id = r.id) AS fingerprint
         FROM candidates c CROSS JOIN automation_runs r ON r.seq = c.seq
         JOIN workspace_members m ON m.workspace_id = r.workspace_id AND m.user_id = ?`,
    ).all(this.lastRunSeq, JSON.stringify([...this.runs.keys()]), this.userId);
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
