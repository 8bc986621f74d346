import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Query, Sql } from '../../platform/db/query';
import { requireProject } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import type { Services } from '../../services';
import { ItemsEnvelope, Params, Responses } from '../../http/schemas';
import { pointOf } from './dates';

const datePoint = Type.Object(
  { date: Type.String(), time: Type.Optional(Type.String()), timezone: Type.String() },
  { additionalProperties: false },
);

/** One task's summary: what the outline shows on its row (docs "API", "Task summaries"). */
export const taskSummarySchema = Type.Object(
  {
    taskId: Type.String({ description: 'uuid' }),
    assignees: Type.Array(Type.String(), { description: 'handles, alphabetical' }),
    start: Type.Union([datePoint, Type.Null()]),
    end: Type.Union([datePoint, Type.Null()]),
    fields: Type.Array(
      Type.Object(
        { fieldId: Type.String(), value: Type.Union([Type.Boolean(), Type.Number(), Type.String()]) },
        { additionalProperties: false },
      ),
      { description: 'the values set' },
    ),
    hasNote: Type.Boolean({ description: 'whether the task has a note (read it with GET .../note)' }),
  },
  { additionalProperties: false },
);

/** A task's assignees, date and field values at once. */
export type TaskSummary = Static<typeof taskSummarySchema>;

interface DateRow {
  id: string;
  startDate: string | null;
  startTime: string | null;
  startTz: string | null;
  endDate: string | null;
  endTime: string | null;
  endTz: string | null;
  /** 1 when the task has a note, else 0. */
  hasNote: number;
}

/**
 * The assignees, date, custom field values and whether it has a note, of every task of a project
 * that has any of them (Viewer), in three queries: what the outline shows beside each task, and
 * what the task panel need not ask for (a task without a date or note). Tasks with none are left out.
 * @throws ServiceError 404 for an unknown project (or one the actor may not see).
 */
export function* listTaskSummaries(svc: Services, actor: Actor, projectId: string, q: Sql = svc.store.sql): Query<TaskSummary[]> {
  yield* requireProject(q, actor, projectId, 'Viewer');
  const summaries = new Map<string, TaskSummary>();
  const of = (taskId: string) => {
    let summary = summaries.get(taskId);
    if (!summary) summaries.set(taskId, (summary = { taskId, assignees: [], start: null, end: null, fields: [], hasNote: false }));
    return summary;
  };
  const dates = yield* q.all<DateRow>(
    `SELECT id, start_date AS "startDate", start_time AS "startTime", start_tz AS "startTz",
            end_date AS "endDate", end_time AS "endTime", end_tz AS "endTz", CASE WHEN note_value IS NULL THEN 0 ELSE 1 END AS "hasNote"
       FROM tasks WHERE project_id = ? AND (start_date IS NOT NULL OR end_date IS NOT NULL OR note_value IS NOT NULL)`,
    [projectId],
  );
  for (const row of dates) {
    const summary = of(row.id);
    summary.start = pointOf(row.startDate, row.startTime, row.startTz);
    summary.end = pointOf(row.endDate, row.endTime, row.endTz);
    summary.hasNote = Number(row.hasNote) === 1;
  }
  const assigned = yield* q.all<{ taskId: string; handle: string }>(
    `SELECT a.task_id AS "taskId", u.handle FROM task_assignees a JOIN tasks t ON t.id = a.task_id JOIN users u ON u.id = a.user_id
      WHERE t.project_id = ? ORDER BY lower(u.handle)`,
    [projectId],
  );
  for (const row of assigned) of(row.taskId).assignees.push(row.handle);
  const values = yield* q.all<{ taskId: string; fieldId: string; valueJson: string }>(
    `SELECT v.task_id AS "taskId", v.field_id AS "fieldId", v.value_json AS "valueJson" FROM task_field_values v JOIN fields f ON f.id = v.field_id
      WHERE f.project_id = ? ORDER BY f.created_at, f.id`,
    [projectId],
  );
  for (const row of values)
    of(row.taskId).fields.push({ fieldId: row.fieldId, value: JSON.parse(row.valueJson) as boolean | number | string });
  return [...summaries.values()];
}

/** `GET /projects/{projectId}/task-summaries`: {@link listTaskSummaries}. */
export const taskSummaryRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  app.get(
    '/projects/:projectId/task-summaries',
    {
      schema: {
        tags: ['tasks'],
        summary: 'The assignees, date and custom field values of every task that has any (what an outline row shows)',
        params: Params('projectId'),
        response: Responses(ItemsEnvelope(taskSummarySchema)),
      },
    },
    async (request) => ({ ok: true, items: await svc.store.run(listTaskSummaries(svc, request.actor, request.params.projectId)) }),
  );
};
