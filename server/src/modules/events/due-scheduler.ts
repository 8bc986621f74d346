import type { Query, Sql } from '../../platform/db/query';
import { isoTime } from '../../platform/clock';
import type { Services } from '../../services';
import { WorkerLoop, type WorkerLog } from '../../platform/worker-loop';
import { appendEvent } from './outbox';

/**
 * The `task.due` scheduler (README "Events and webhooks", "task.due").
 *
 * Each (task, due time) fires at most once, recorded in `task_due_fired` in the same transaction
 * as the event. A scan covers due times in (lower, now], where lower = min(the previous scan's
 * time, now − `TASKSPACE_DUE_GRACE_MS`), skipping pairs already fired. The scan time is kept in
 * memory and persisted (`due_scheduler_state`) only with a scan that did work or at most every
 * {@link DUE_STATE_PERSIST_MS}; after a restart the scan resumes from the persisted time. Hence:
 * - a due time fires when it arrives (within one poll interval);
 * - due times that passed while the server was down fire on the next start;
 * - a date set to a moment already passed fires at once if it lies within the grace window
 *   (default 24 h; all-day dates are due at 00:00 of their day), else never;
 * - a changed date fires again for the new time; completed tasks and templates are skipped.
 * On the very first scan of a database, only the grace window is looked at (no history).
 * Time comes from `svc.clock`; `tasks.due_at` (ms epoch) is maintained by the task domain.
 */

interface DueTask {
  id: string;
  due_at: number;
  text: string;
  note_value: string | null;
  parent_id: string | null;
  completed: number;
  start_date: string | null;
  end_date: string | null;
  project_id: string;
  project_name: string;
  workspace_id: string;
  is_template: number;
}

/** Result of one scan. */
export interface DueScan {
  /** Events raised. */
  fired: number;
  /** True when the batch was full and more due tasks may be waiting. */
  more: boolean;
  /** The earliest future due time (ms epoch), or null. */
  nextDueAt: number | null;
}

function* assigneesOf(q: Sql, taskId: string): Query<{ handle: string }[]> {
  return yield* q.all<{ handle: string }>(
    `SELECT u.handle FROM task_assignees a JOIN users u ON u.id = a.user_id WHERE a.task_id = ? ORDER BY a.assigned_at, u.handle`,
    [taskId],
  );
}

/** The `task.due` payload of a task row (shape in README "Events and webhooks"). */
function* payloadOf(svc: Services, q: Sql, task: DueTask, now: number): Query<Record<string, unknown>> {
  const payload: Record<string, unknown> = {
    projectId: task.project_id,
    projectTitle: task.project_name,
    projectLink: svc.links.project(task.project_id),
    nodeId: task.id,
    nodeText: task.text,
  };
  if (task.note_value !== null) payload.nodeNote = task.note_value;
  if (task.parent_id !== null) payload.parentId = task.parent_id;
  payload.dueAt = isoTime(task.due_at);
  if (task.start_date !== null) payload.startDate = task.start_date;
  if (task.end_date !== null) payload.endDate = task.end_date;
  payload.assignees = yield* assigneesOf(q, task.id);
  payload.triggerTime = isoTime(now);
  return payload;
}

/**
 * How often an idle scheduler persists its scan position, in ms. Between persists a restart
 * rescans from the last persisted position; `task_due_fired` keeps such rescans from firing twice.
 */
export const DUE_STATE_PERSIST_MS = 60_000;

/** The in-process scan position: the time of the last complete scan (persisted at most every {@link DUE_STATE_PERSIST_MS}). */
export interface DueScanPosition {
  scannedUntil?: number;
}

const DUE_TASKS = `SELECT t.id, t.due_at, t.text, t.note_value, t.parent_id, t.completed, t.start_date, t.end_date,
        p.id AS project_id, p.name AS project_name, p.workspace_id, p.is_template
   FROM tasks t JOIN projects p ON p.id = t.project_id
  WHERE t.due_at > ? AND t.due_at <= ?
    AND NOT EXISTS (SELECT 1 FROM task_due_fired f WHERE f.task_id = t.id AND f.due_at = t.due_at)
  ORDER BY t.due_at, t.id LIMIT ?`;

function* scannedUntil(q: Sql): Query<number | undefined> {
  return (yield* q.get<{ scanned_until: number }>('SELECT scanned_until FROM due_scheduler_state WHERE id = 1'))?.scanned_until;
}

function* nextDueAfter(q: Sql, now: number): Query<number | null> {
  return (yield* q.get<{ at: number | null }>('SELECT min(due_at) AS at FROM tasks WHERE due_at > ?', [now]))?.at ?? null;
}

/**
 * Fires the due times that have arrived, up to `limit` tasks, in one transaction.
 * Safe to call at any time; the result says when to call again. A scan with nothing due opens
 * no write transaction, except to persist the scan position (first scan of a database, then at
 * most every {@link DUE_STATE_PERSIST_MS}); `position` carries the unpersisted position between scans
 * (updated only once the scan's transaction has committed).
 */
export function* fireDueTasks(svc: Services, limit = 200, position: DueScanPosition = {}, q: Sql = svc.store.sql): Query<DueScan> {
  const now = svc.clock.now();
  const grace = svc.config.webhooks.dueGraceMs;
  // Look before taking the write lock.
  const persisted = yield* scannedUntil(q);
  const lowerOf = (stored: number | undefined) => Math.min(position.scannedUntil ?? stored ?? now, now - grace);
  const anyDue = (yield* q.get<DueTask>(DUE_TASKS, [lowerOf(persisted), now, 1])) !== undefined;
  if (!anyDue && persisted !== undefined && now - persisted < DUE_STATE_PERSIST_MS) {
    position.scannedUntil = now;
    return { fired: 0, more: false, nextDueAt: yield* nextDueAfter(q, now) };
  }
  const scan = yield* q.transaction(function* (tx) {
    const stored = yield* scannedUntil(tx);
    const due = yield* tx.all<DueTask>(DUE_TASKS, [lowerOf(stored), now, limit]);
    let fired = 0;
    for (const task of due) {
      const fires = task.completed === 0 && task.is_template === 0;
      if (fires) fired++;
      const eventId = fires
        ? yield* appendEvent(tx, { type: 'task.due', workspaceId: task.workspace_id, payload: yield* payloadOf(svc, tx, task, now) }, now)
        : null;
      yield* tx.run('INSERT INTO task_due_fired (task_id, due_at, fired_at, event_id) VALUES (?, ?, ?, ?)', [
        task.id,
        task.due_at,
        now,
        eventId,
      ]);
    }
    const more = due.length === limit;
    if (!more) {
      yield* tx.run(
        'INSERT INTO due_scheduler_state (id, scanned_until) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET scanned_until = excluded.scanned_until',
        [now],
      );
      // Pairs at or below the lower bound from the persisted position are never scanned again,
      // not even after a restart (later lower bounds are higher).
      yield* tx.run('DELETE FROM task_due_fired WHERE due_at <= ?', [Math.min(stored ?? now, now - grace)]);
    }
    return { fired, more, nextDueAt: yield* nextDueAfter(tx, now) };
  });
  if (!scan.more) position.scannedUntil = now;
  return scan;
}

/** Runs {@link fireDueTasks} in the background: at each due time, at least every poll interval. */
export class DueScheduler {
  private readonly loop: WorkerLoop;
  private readonly position: DueScanPosition = {};

  constructor(
    private readonly svc: Services,
    log: WorkerLog,
    /** Called after a scan raised events (wakes the dispatcher). */
    private readonly onFired: () => void = () => undefined,
  ) {
    this.loop = new WorkerLoop('task.due scheduler', () => this.step(), log);
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async step(): Promise<number> {
    // The leader's work: nothing while this process does not know it still leads (platform/leadership.ts).
    if (!this.svc.leadership.leading) return this.svc.config.webhooks.pollMs;
    const scan = await this.svc.store.run(fireDueTasks(this.svc, undefined, this.position));
    if (scan.fired > 0) this.onFired();
    if (scan.more) return 0;
    const poll = this.svc.config.webhooks.pollMs;
    return scan.nextDueAt === null ? poll : Math.min(poll, Math.max(0, scan.nextDueAt - this.svc.clock.now()));
  }
}
