import type { FindTasksParams } from '@taskspace/engine';
import type { Actor } from '../../auth/tokens';
import type { Query, Sql } from '../../platform/db/query';
import { badRequest } from '../../errors';
import type { Services } from '../../services';
import { listFields } from '../fields/service';
import { listTasks, type TaskFilter } from '../tasks/service';
import type { Task } from '../tasks/records';

/** Most tasks one `task.find` step reads past its field filter before it answers with a shorter page (tasks). */
const MAX_SCANNED = 1000;

/** One page of `task.find`: the matching tasks, and the cursor of the next page when there may be more. */
export interface FoundTasks {
  items: Task[];
  /** Pass as `after` for the next page; absent on the last page. */
  next?: string;
}

/**
 * The `task.find` action (Viewer): {@link listTasks} with its own filters (text contains,
 * completed, assignee), the same access checks and cursor rules as `GET .../tasks`, narrowed by a
 * custom field's value (by field id or name; compared as text) read per page. Without a field
 * filter a page is one `listTasks` call of `limit + 1` rows; with one it reads pages until `limit`
 * tasks match or {@link MAX_SCANNED} were read, so a page may hold fewer than `limit` tasks while
 * `next` is still set.
 * @throws ServiceError 400 field `filter.field.fieldId` (reason `not_found`) for an unknown field;
 *   as {@link listTasks} otherwise (unknown `after`, 404 project).
 */
export function* findTasks(svc: Services, actor: Actor, p: FindTasksParams, q: Sql): Query<FoundTasks> {
  const filter: TaskFilter = {};
  if (p.text !== undefined) filter.search = p.text;
  if (p.completed !== undefined) filter.completed = p.completed;
  if (p.assignee !== undefined) filter.assignee = p.assignee;
  if (p.field === undefined) {
    const rows = yield* listTasks(svc, actor, p.projectId, { limit: p.limit + 1, after: p.after }, filter, q);
    if (rows.length <= p.limit) return { items: rows };
    const items = rows.slice(0, p.limit);
    return { items, next: items[items.length - 1]!.id };
  }
  const wanted = p.field;
  const key = wanted.fieldId.trim().toLowerCase();
  const field = (yield* listFields(svc, actor, p.projectId, q)).find((f) => f.id === wanted.fieldId || f.name.trim().toLowerCase() === key);
  if (!field) throw badRequest('filter.field.fieldId', 'not_found', `filter.field.fieldId: the project has no field '${wanted.fieldId}'`);
  const items: Task[] = [];
  let after = p.after;
  for (let scanned = 0; scanned < MAX_SCANNED; ) {
    const page = yield* listTasks(svc, actor, p.projectId, { limit: 100, after }, filter, q);
    if (page.length === 0) return { items };
    const values = yield* valuesOf(
      q,
      field.id,
      page.map((t) => t.id),
    );
    for (const task of page) {
      scanned++;
      after = task.id;
      if (values.get(task.id) === String(wanted.value)) items.push(task);
      if (items.length === p.limit) return { items, next: task.id };
    }
    if (page.length < 100) return { items };
  }
  return { items, next: after };
}

/** The stored values of one field for some tasks, as text (JSON strings unquoted). */
function* valuesOf(q: Sql, fieldId: string, taskIds: string[]): Query<Map<string, string>> {
  const rows = yield* q.all<{ taskId: string; value_json: string }>(
    `SELECT task_id AS "taskId", value_json FROM task_field_values WHERE field_id = ? AND task_id IN (${taskIds.map(() => '?').join(', ')})`,
    [fieldId, ...taskIds],
  );
  return new Map(rows.map((r) => [r.taskId, String(JSON.parse(r.value_json) as unknown)]));
}
