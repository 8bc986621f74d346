import type { Dialect, Query, Sql } from '../../platform/db/query';
import { raiseTaskAddedForProject } from '../tasks/bulk-events';
import { bytewise } from '../tasks/tree';
import { requireFolder, requireProject, type FolderAccess, type ProjectAccess } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import { badRequest } from '../../errors';
import { newTaskId } from '../../platform/ids';
import type { Services } from '../../services';
import { copyFields } from '../fields/service';
import { insertRows } from '../../platform/db/bulk-insert';
import { insertProject, type Project } from './service';

/**
 * Project duplication (spec section 4.2 copy and from-template; README "Projects: copy and
 * templates"). Both read the source (Viewer is enough, even when it is completed) and create
 * a new project in the target folder (Collaborator there), raising `project.created`.
 *
 * What is duplicated: every task with its place in the tree, text, content type, completion
 * (flag, time, user), note, start/end dates and due time; every field definition and every
 * field value (new ids throughout); assignees only when the target folder is in the source's
 * workspace. Comments, the share link and the project's own completion are not copied.
 */

interface TaskRow {
  id: string;
  parent_id: string | null;
  rank: string;
  path: string;
  text: string;
  content_type: string;
  completed: number;
  completed_at: number | null;
  completed_by: string | null;
  note_type: string | null;
  note_value: string | null;
  start_date: string | null;
  start_time: string | null;
  start_tz: string | null;
  end_date: string | null;
  end_time: string | null;
  end_tz: string | null;
  due_at: number | null;
}

/** Options of {@link duplicateTree}. */
export interface DuplicateOptions {
  /** Copy assignees too (only meaningful inside one workspace). */
  withAssignees: boolean;
  /** The copying user (`created_by` of the new tasks). */
  userId: string;
  /** Time of the copy, ms since the epoch. */
  now: number;
}

/** The columns a copied task is read with, in the order they are written after `id, project_id`. */
const COPIED_COLUMNS = `parent_id, rank, path, text, content_type, completed, completed_at, completed_by, note_type, note_value,
            start_date, start_time, start_tz, end_date, end_time, end_tz, due_at`;

/** The source's tasks in path order (compared bytewise: parents before their children), per dialect. */
const SOURCE_TASKS_SQL: Readonly<Record<Dialect, string>> = { sqlite: sourceTasksText('sqlite'), postgres: sourceTasksText('postgres') };

function sourceTasksText(dialect: Dialect): string {
  return `SELECT id, ${COPIED_COLUMNS} FROM tasks WHERE project_id = ? ORDER BY ${bytewise(dialect, 'path')}`;
}

/** The columns of a copied task row, in the order {@link duplicateTree} writes them. */
const TASK_INSERT_COLUMNS = [
  'id',
  'project_id',
  'parent_id',
  'rank',
  'path',
  'text',
  'content_type',
  'completed',
  'completed_at',
  'completed_by',
  'note_type',
  'note_value',
  'start_date',
  'start_time',
  'start_tz',
  'end_date',
  'end_time',
  'end_tz',
  'due_at',
  'created_by',
  'created_at',
  'updated_at',
] as const;

/**
 * Copies the task tree, field definitions and values (and optionally assignees) of
 * `sourceProjectId` into the empty project `targetProjectId`. Ranks and paths are per project,
 * so they are reused as they are; rows are read in path order so parents exist before their
 * children, and written with multi-row INSERTs. Call inside a transaction, with its handle.
 */
export function* duplicateTree(q: Sql, sourceProjectId: string, targetProjectId: string, opts: DuplicateOptions): Query<void> {
  const tasks = yield* q.all<TaskRow>(SOURCE_TASKS_SQL[q.dialect], [sourceProjectId]);
  const ids = new Map<string, string>();
  const rows = tasks.map((t) => {
    const id = newTaskId();
    ids.set(t.id, id);
    return [
      id,
      targetProjectId,
      t.parent_id === null ? null : ids.get(t.parent_id)!,
      t.rank,
      t.path,
      t.text,
      t.content_type,
      t.completed,
      t.completed_at,
      t.completed_by,
      t.note_type,
      t.note_value,
      t.start_date,
      t.start_time,
      t.start_tz,
      t.end_date,
      t.end_time,
      t.end_tz,
      t.due_at,
      opts.userId,
      opts.now,
      opts.now,
    ];
  });
  yield* insertRows(q, 'tasks', TASK_INSERT_COLUMNS, rows);
  yield* copyFields(q, sourceProjectId, targetProjectId, ids, opts.now);
  if (opts.withAssignees) {
    const assignees = yield* q.all<{ task_id: string; user_id: string }>(
      'SELECT a.task_id, a.user_id FROM task_assignees a JOIN tasks t ON t.id = a.task_id WHERE t.project_id = ?',
      [sourceProjectId],
    );
    yield* insertRows(
      q,
      'task_assignees',
      ['task_id', 'user_id', 'assigned_at'],
      assignees.map((a) => [ids.get(a.task_id)!, a.user_id, opts.now]),
    );
  }
}

function* duplicate(
  tx: Sql,
  svc: Services,
  actor: Actor,
  source: ProjectAccess,
  folder: FolderAccess,
  name: string,
  isTemplate: boolean,
): Query<Project> {
  const now = svc.clock.now();
  const project = yield* insertProject(tx, svc, actor, folder, { name, isTemplate }, now);
  yield* duplicateTree(tx, source.id, project.id, {
    withAssignees: folder.workspaceId === source.workspaceId,
    userId: actor.userId,
    now,
  });
  yield* raiseTaskAddedForProject(tx, svc, actor, project, now);
  return project;
}

/** Body of `POST /api/v1/projects/{projectId}/copy`. */
export interface CopyInput {
  folderId: string;
  /** Name of the copy (default: the source's name). */
  projectTitle?: string;
  /** Make the copy a template (default false: a normal project). */
  isTemplate?: boolean;
}

/**
 * `POST /api/v1/projects/{projectId}/copy`: duplicates a project (Viewer on it) into a folder
 * (Collaborator there), in one transaction. The copy is never completed.
 * @throws ServiceError 404 unknown project or folder, 403 role too low on the target.
 */
export function copyProject(svc: Services, actor: Actor, projectId: string, input: CopyInput, q: Sql = svc.store.sql): Query<Project> {
  return q.transaction(function* (tx) {
    const source = yield* requireProject(tx, actor, projectId, 'Viewer');
    const folder = yield* requireFolder(tx, actor, input.folderId, 'Collaborator', 'copying a project into this folder');
    return yield* duplicate(tx, svc, actor, source, folder, input.projectTitle ?? source.name, input.isTemplate === true);
  });
}

/** Body of `POST /api/v1/projects/from-template`. */
export interface FromTemplateInput {
  folderId: string;
  templateId: string;
}

/**
 * `POST /api/v1/projects/from-template`: a normal project named like the template (Viewer on
 * it) with a copy of its tree, in a folder (Collaborator there), in one transaction.
 * @throws ServiceError 404 unknown template or folder; 400 (`templateId`, `not_a_template`)
 *   when the id is a project that is not flagged as a template; 403 role too low on the target.
 */
export function createProjectFromTemplate(svc: Services, actor: Actor, input: FromTemplateInput, q: Sql = svc.store.sql): Query<Project> {
  return q.transaction(function* (tx) {
    const template = yield* requireProject(tx, actor, input.templateId, 'Viewer');
    if (!template.isTemplate) {
      throw badRequest('templateId', 'not_a_template', `project '${input.templateId}' is not a template`);
    }
    const folder = yield* requireFolder(tx, actor, input.folderId, 'Collaborator', 'creating a project in this folder');
    return yield* duplicate(tx, svc, actor, template, folder, template.name, false);
  });
}
