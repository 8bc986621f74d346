/**
 * The service actions beyond task writes (docs "Actions"): `comment.create`, `task.get`,
 * `task.find` and `project.create`. Each renders its templates and calls the matching optional
 * {@link Service} method, which runs the same logic as the API; the API-shaped result is the
 * step's output. A host without the method fails the step with the permanent `NOT_SUPPORTED`.
 */
import type { Action } from '../../../definition/types';
import type { ServiceAction } from './service-actions';
import { TASK_FIND_DEFAULT_LIMIT } from './service-actions';
import { permanent } from '../../../errors';
import type { FindTasksParams, Service, ServiceContext } from '../../../ports';
import type { Scope, Templates } from '../../../templates';
import { optionalString, requiredString } from '../../params';
import type { ActionKind } from '../../executor';

type Of<T extends ServiceAction['type']> = Extract<ServiceAction, { type: T }>;
type Method = 'createComment' | 'getTask' | 'findTasks' | 'createProject';

function kind<T extends ServiceAction['type'], M extends Method>(
  method: M,
  prepare: (a: Of<T>, s: Scope, t: Templates) => Parameters<NonNullable<Service[M]>>[1],
): ActionKind<Action, Parameters<NonNullable<Service[M]>>[1]> {
  return {
    prepare: (a, s, t) => prepare(a as Of<T>, s, t),
    execute: (ctx, p) => {
      const call = ctx.service[method] as ((c: ServiceContext, p: unknown) => Promise<unknown>) | undefined;
      if (call === undefined) throw permanent('NOT_SUPPORTED', `this host does not offer ${method}`);
      return call.call(ctx.service, ctx.serviceContext, p);
    },
  };
}

function ref(a: { projectId: string; taskId: string }, s: Scope, t: Templates) {
  return { projectId: requiredString(t, a.projectId, s, 'projectId'), taskId: requiredString(t, a.taskId, s, 'taskId') };
}

/** `completed` as a boolean: a literal, or a template rendering to `true`/`false` (empty: no filter). */
function completedOf(value: boolean | string | undefined, s: Scope, t: Templates): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  const out = t.render(value, s, 'filter.completed').trim().toLowerCase();
  if (out === '') return undefined;
  if (out === 'true' || out === 'false') return out === 'true';
  throw permanent('INVALID_INPUT', `filter.completed must render to true or false, not '${out}'`, { field: 'filter.completed' });
}

function findParams(a: Of<'task.find'>, s: Scope, t: Templates): FindTasksParams {
  const p: FindTasksParams = { projectId: requiredString(t, a.projectId, s, 'projectId'), limit: a.limit ?? TASK_FIND_DEFAULT_LIMIT };
  const f = a.filter ?? {};
  const text = optionalString(t, f.text, s, 'filter.text');
  const completed = completedOf(f.completed, s, t);
  const assignee = optionalString(t, f.assignee, s, 'filter.assignee')?.replace(/^@/, '');
  const after = optionalString(t, a.after, s, 'after');
  if (text !== undefined) p.text = text;
  if (completed !== undefined) p.completed = completed;
  if (assignee !== undefined && assignee !== '') p.assignee = assignee;
  if (after !== undefined) p.after = after;
  if (f.field !== undefined) {
    const value = t.renderValue(f.field.value, s, 'filter.field.value');
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw permanent('INVALID_INPUT', 'filter.field.value must render to a string, number or boolean', { field: 'filter.field.value' });
    }
    p.field = { fieldId: requiredString(t, f.field.fieldId, s, 'filter.field.fieldId'), value };
  }
  return p;
}

/** The service action kinds by type. */
export const SERVICE_ACTIONS: Record<ServiceAction['type'], ActionKind<Action, unknown>> = {
  'comment.create': kind<'comment.create', 'createComment'>('createComment', (a, s, t) => ({
    ...ref(a, s, t),
    text: t.render(a.text, s, 'text'),
  })),
  'task.get': kind<'task.get', 'getTask'>('getTask', ref),
  'task.find': kind<'task.find', 'findTasks'>('findTasks', findParams),
  'project.create': kind<'project.create', 'createProject'>('createProject', (a, s, t) => {
    const p: { folderId?: string; name: string; content: string } = {
      name: requiredString(t, a.name, s, 'name').trim(),
      content: a.content === undefined ? '' : t.render(a.content, s, 'content'),
    };
    if (/[\r\n]/.test(p.name)) throw permanent('INVALID_INPUT', 'name must be one line', { field: 'name' });
    const folderId = optionalString(t, a.folderId, s, 'folderId');
    if (folderId !== undefined) p.folderId = folderId;
    return p;
  }),
} as Record<ServiceAction['type'], ActionKind<Action, unknown>>;
