/**
 * The fields of the service actions beyond the task writes (docs "Actions"): add a comment, read
 * one task, find tasks, create a project. {@link ServiceAction} joins each with `ActionBase`. All strings are
 * templates unless said otherwise.
 */
import type { ActionBase } from '../../../definition/types';

/** Largest page of `task.find` (tasks per run of the step). */
export const TASK_FIND_MAX_LIMIT = 100;
/** Default page of `task.find`. */
export const TASK_FIND_DEFAULT_LIMIT = 20;

/** Adds a comment to a task, as `POST .../tasks/{taskId}/comments`; output: the comment. */
export interface CreateCommentFields {
  type: 'comment.create';
  projectId: string;
  taskId: string;
  /** The comment, at most 10,000 characters once rendered; may span lines. */
  text: string;
}

/** Reads one task; output: the task (`{id, text, completed, parentId?}`) plus `assignees` and `fields`. */
export interface GetTaskFields {
  type: 'task.get';
  projectId: string;
  taskId: string;
}

/** Filters of `task.find`, combined with AND (each optional). */
export interface TaskFindFilter {
  /** The task's text contains this, case-insensitive. */
  text?: string;
  /** True, false, or a template rendering to `true`/`false`. */
  completed?: boolean | string;
  /** A handle (`@` optional) among the task's assignees. */
  assignee?: string;
  /** A custom field (by id or name) whose value equals `value` (compared as text). */
  field?: { fieldId: string; value: string | number | boolean };
}

/**
 * Finds a project's tasks in document order; output `{items, next?}`: `next` is the cursor of the
 * following page (pass it as `after`), absent on the last page. A page may hold fewer than `limit`
 * tasks when a field filter skips many; follow `next` until it is absent.
 */
export interface FindTasksFields {
  type: 'task.find';
  projectId: string;
  filter?: TaskFindFilter;
  /** Tasks per page, 1 to {@link TASK_FIND_MAX_LIMIT} (default {@link TASK_FIND_DEFAULT_LIMIT}); not a template. */
  limit?: number;
  /** The `next` of a previous page. */
  after?: string;
}

/**
 * Creates a project, as `POST /projects` (with `folderId`) or `POST /workspaces/{id}/projects`
 * (without: the automation's workspace). `content` is markdown whose list items become tasks;
 * `name` (one line, at most 200 characters) names the project. Output: the project.
 */
export interface CreateProjectFields {
  type: 'project.create';
  folderId?: string;
  name: string;
  content?: string;
}

/** The fields of every service action of this file. */
export type ServiceActionFields = CreateCommentFields | GetTaskFields | FindTasksFields | CreateProjectFields;

/** The service actions beyond the task writes. */
export type ServiceAction = ServiceActionFields & ActionBase;

declare module '../../../definition/types' {
  /** This module's kinds (see {@link ActionTypes}). */
  interface ActionTypes {
    service: ServiceAction;
  }
}
