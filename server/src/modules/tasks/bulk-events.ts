import type { Dialect, Query, Sql } from '../../platform/db/query';
import type { Actor } from '../../auth/tokens';
import { appendEvents } from '../events/outbox';
import type { Services } from '../../services';
import { bytewise } from './tree';

/**
 * `task.added` for tasks written in bulk: a project created from markdown or plain text, a
 * project copy and a project made from a template (README "Events and webhooks": the
 * automation trigger "Task added" fires once per created task, whatever created it).
 */

/** The project the tasks were written into. */
export interface BulkProject {
  id: string;
  name: string;
  workspaceId: string;
}

interface NewTaskRow {
  id: string;
  parent_id: string | null;
  text: string;
  note_value: string | null;
  start_date: string | null;
  end_date: string | null;
}

/** The tasks of a project in document order (paths compared bytewise), per dialect. */
const PROJECT_TASKS_SQL: Readonly<Record<Dialect, string>> = { sqlite: projectTasksText('sqlite'), postgres: projectTasksText('postgres') };

function projectTasksText(dialect: Dialect): string {
  return `SELECT id, parent_id, text, note_value, start_date, end_date FROM tasks WHERE project_id = ? ORDER BY ${bytewise(dialect, 'path')}`;
}

/**
 * Raises one `task.added` per task of `project`, parents before children (document order),
 * with the payload of a task made through `POST .../tasks` (`projectId`, `projectTitle`,
 * `projectLink`, `nodeId`, `nodeText`, `parentId` on subtasks, `assignees` as
 * `{handle, displayName}`, `createdBy`) plus `nodeNote`, `startDate` and `endDate` when a copied
 * task has them. Reads the tasks with one query and the assignees with another; the events are
 * written with batched INSERTs. Call inside the transaction that filled the (new) project, with
 * its handle `q`.
 */
export function* raiseTaskAddedForProject(q: Sql, svc: Services, actor: Actor, project: BulkProject, now: number): Query<void> {
  const tasks = yield* q.all<NewTaskRow>(PROJECT_TASKS_SQL[q.dialect], [project.id]);
  if (tasks.length === 0) return;
  const assignees = new Map<string, { handle: string; displayName: string }[]>();
  const assigned = yield* q.all<{ taskId: string; handle: string; displayName: string }>(
    `SELECT a.task_id AS "taskId", u.handle, u.display_name AS "displayName"
       FROM task_assignees a JOIN tasks t ON t.id = a.task_id JOIN users u ON u.id = a.user_id
      WHERE t.project_id = ? ORDER BY lower(u.handle)`,
    [project.id],
  );
  for (const row of assigned) {
    const list = assignees.get(row.taskId) ?? [];
    list.push({ handle: row.handle, displayName: row.displayName });
    assignees.set(row.taskId, list);
  }
  const projectLink = svc.links.project(project.id);
  yield* appendEvents(
    q,
    tasks.map((task) => {
      const payload: Record<string, unknown> = {
        projectId: project.id,
        projectTitle: project.name,
        projectLink,
        nodeId: task.id,
        nodeText: task.text,
      };
      if (task.parent_id !== null) payload.parentId = task.parent_id;
      if (task.note_value !== null) payload.nodeNote = task.note_value;
      if (task.start_date !== null) payload.startDate = task.start_date;
      if (task.end_date !== null) payload.endDate = task.end_date;
      payload.assignees = assignees.get(task.id) ?? [];
      payload.createdBy = actor.handle;
      return { type: 'task.added' as const, workspaceId: project.workspaceId, payload, depth: actor.depth, causedBy: actor.cause };
    }),
    now,
  );
}
