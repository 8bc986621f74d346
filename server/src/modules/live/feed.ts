import { FINAL_STATUSES, type RunStatus } from '@taskspace/engine';
import type { Dialect, Query, Sql } from '../../platform/db/query';

/**
 * Live updates (docs "Web app", "Live updates"): what changed in the watched workspaces, found by
 * comparing small fingerprints kept in the database rather than by listening to one process, so a
 * change made by any process (or by an automation run) is seen:
 * - a project whose `projects.version` moved (the database bumps it on every task change) → `project`;
 * - a run that was created, changed status or journalled a step → `run`.
 *
 * One {@link LiveChanges} serves every open stream of a server (see hub.ts): one look costs the
 * same few queries however many streams are open, and each change is then handed to the streams
 * of the members of its workspace.
 */

/**
 * The people present on the project a stream watches (presence.ts): sent when the stream opens and
 * whenever the list changes; each person by handle and display name, in the order they arrived.
 */
export interface PresenceEvent {
  event: 'presence';
  data: { projectId: string; people: { handle: string; displayName: string }[] };
}

/** One change, as sent on the stream: the SSE event name and its JSON data. */
export type LiveEvent =
  | { event: 'project'; data: { projectId: string; version: number } }
  | { event: 'run'; data: { runId: string; automationId: string; status: string } }
  | PresenceEvent;

/** A change and the workspace it belongs to (whose members may see it). */
export interface WorkspaceChange {
  workspaceId: string;
  change: LiveEvent;
}

interface RunRow {
  seq: number;
  id: string;
  automationId: string;
  workspaceId: string;
  status: RunStatus;
  /** Steps, attempts, succeeded steps and the last finish time, joined: changes whenever the journal does. */
  fingerprint: string;
}

/** `?` as the list of strings of a JSON array parameter, for `x IN (…)`. */
const JSON_LIST: Record<Dialect, string> = {
  sqlite: 'SELECT value FROM json_each(?)',
  postgres: 'SELECT jsonb_array_elements_text(CAST(? AS jsonb))',
};

/**
 * New runs, unfinished runs and the runs reported last time, of the watched workspaces, each found
 * through an index (never a scan of every run), with their fingerprints. Parameters: the last run
 * `seq` seen, the highest `seq` to take as new, a JSON array of the run ids reported last time, a
 * JSON array of the watched workspace ids. On SQLite, INDEXED BY and CROSS JOIN hold the planner to
 * those indexes; PostgreSQL has neither (its planner picks the partial indexes of `automation_runs`
 * by itself).
 */
const CHANGED_RUNS: Record<Dialect, string> = {
  sqlite: `WITH candidates(seq) AS (
         SELECT seq FROM automation_runs WHERE seq > ? AND seq <= ?
         UNION SELECT seq FROM automation_runs WHERE status IN ('queued', 'running')
         UNION SELECT seq FROM automation_runs INDEXED BY automation_runs_wake WHERE status = 'waiting'
         UNION SELECT seq FROM automation_runs WHERE id IN (${JSON_LIST.sqlite})
       )
       SELECT r.seq, r.id, r.automation_id AS "automationId", r.workspace_id AS "workspaceId", r.status,
              (SELECT COUNT(*) || ':' || COALESCE(SUM(s.attempts), 0) || ':' || COALESCE(SUM(s.status = 'succeeded'), 0) || ':' || COALESCE(MAX(s.finished_at), 0)
                 FROM automation_steps s WHERE s.run_id = r.id) AS fingerprint
         FROM candidates c CROSS JOIN automation_runs r ON r.seq = c.seq
        WHERE r.workspace_id IN (${JSON_LIST.sqlite})`,
  postgres: `WITH candidates(seq) AS (
         SELECT seq FROM automation_runs WHERE seq > ? AND seq <= ?
         UNION SELECT seq FROM automation_runs WHERE status IN ('queued', 'running')
         UNION SELECT seq FROM automation_runs WHERE status = 'waiting'
         UNION SELECT seq FROM automation_runs WHERE id IN (${JSON_LIST.postgres})
       )
       SELECT r.seq, r.id, r.automation_id AS "automationId", r.workspace_id AS "workspaceId", r.status,
              (SELECT COUNT(*) || ':' || COALESCE(SUM(s.attempts), 0) || ':' || COALESCE(SUM(CASE WHEN s.status = 'succeeded' THEN 1 ELSE 0 END), 0) || ':' || COALESCE(MAX(s.finished_at), 0)
                 FROM automation_steps s WHERE s.run_id = r.id) AS fingerprint
         FROM candidates c JOIN automation_runs r ON r.seq = c.seq
        WHERE r.workspace_id IN (${JSON_LIST.postgres})`,
};

/** What one look found: the changes, and who may see each (workspace id → member user ids). */
export interface LookResult {
  changes: WorkspaceChange[];
  members: Map<string, Set<string>>;
}

/**
 * The changes of the workspaces of a set of people, for all their streams at once. Holds what it
 * last saw; a workspace seen for the first time (its first watcher just connected, or someone was
 * added to it) is taken as it is, without events: a stream reads fresh data when it opens.
 * Its operations keep state between calls: run one at a time.
 */
export class LiveChanges {
  private projects = new Map<string, number>();
  /** Runs seen and not yet seen final, by id: their last fingerprint. */
  private runs = new Map<string, string>();
  private lastRunSeq = 0;
  /** The workspaces watched at the last look. */
  private watched = new Set<string>();

  /**
   * Looks for changes in the workspaces of `userIds`: three queries, whatever the number of
   * people or streams. `count` is told of each query (for the hub's statistics).
   */
  *look(q: Sql, userIds: readonly string[], count: () => void): Query<LookResult> {
    count();
    const memberships = yield* q.all<{ workspaceId: string; userId: string; maxSeq: number | null }>(
      `SELECT m.workspace_id AS "workspaceId", m.user_id AS "userId", (SELECT MAX(seq) FROM automation_runs) AS "maxSeq"
         FROM workspace_members m WHERE m.user_id IN (${JSON_LIST[q.dialect]})`,
      [JSON.stringify(userIds)],
    );
    const members = new Map<string, Set<string>>();
    let maxSeq = this.lastRunSeq;
    for (const m of memberships) {
      let set = members.get(m.workspaceId);
      if (!set) members.set(m.workspaceId, (set = new Set()));
      set.add(m.userId);
      maxSeq = Math.max(maxSeq, m.maxSeq ?? 0);
    }
    const workspaces = JSON.stringify([...members.keys()]);
    const known = (workspaceId: string) => this.watched.has(workspaceId);
    const changes: WorkspaceChange[] = [];

    count();
    const projects = yield* q.all<{ id: string; workspaceId: string; version: number }>(
      `SELECT id, workspace_id AS "workspaceId", version FROM projects WHERE workspace_id IN (${JSON_LIST[q.dialect]})`,
      [workspaces],
    );
    const nextProjects = new Map<string, number>();
    for (const p of projects) {
      nextProjects.set(p.id, p.version);
      if (known(p.workspaceId) && this.projects.get(p.id) !== p.version) {
        changes.push({ workspaceId: p.workspaceId, change: { event: 'project', data: { projectId: p.id, version: p.version } } });
      }
    }

    count();
    const runs = yield* q.all<RunRow>(CHANGED_RUNS[q.dialect], [
      this.lastRunSeq,
      maxSeq,
      JSON.stringify([...this.runs.keys()]),
      workspaces,
    ]);
    const nextRuns = new Map<string, string>();
    for (const r of runs) {
      const key = `${r.status}|${r.fingerprint}`;
      if (!FINAL_STATUSES.has(r.status)) nextRuns.set(r.id, key);
      if (known(r.workspaceId) && this.runs.get(r.id) !== key) {
        changes.push({
          workspaceId: r.workspaceId,
          change: { event: 'run', data: { runId: r.id, automationId: r.automationId, status: r.status } },
        });
      }
    }
    this.projects = nextProjects;
    this.runs = nextRuns;
    this.lastRunSeq = maxSeq;
    this.watched = new Set(members.keys());
    return { changes, members };
  }
}
