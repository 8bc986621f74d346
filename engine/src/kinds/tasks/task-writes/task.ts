/**
 * Task actions: create, update text, complete, uncomplete, delete, assign, set date, set note,
 * set a custom field, move. Each renders its templates and calls the matching {@link Service}
 * method, which runs the same logic as the API; the API-shaped result is the step's output.
 */
import type { Action } from '../../../definition/types';
import { permanent } from '../../../errors';
import type { Service, ServiceContext } from '../../../ports';
import type { Scope, Templates } from '../../../templates';
import { optionalString, requiredString } from '../../params';
import type { ActionKind } from '../../executor';
import type { ServiceAction } from '../service/service-actions';

/** The task writes (declared in `task-writes.ts`; taken from the union, so this file does not import its declaration). */
type TaskAction = Exclude<Extract<Action, { type: `task.${string}` }>, ServiceAction>;

type Of<T extends TaskAction['type']> = Extract<TaskAction, { type: T }>;

function ref(a: { projectId: string; taskId: string }, s: Scope, t: Templates) {
  return { projectId: requiredString(t, a.projectId, s, 'projectId'), taskId: requiredString(t, a.taskId, s, 'taskId') };
}

function kind<T extends TaskAction['type'], P>(
  prepare: (a: Of<T>, s: Scope, t: Templates) => P,
  call: (service: Service, ctx: ServiceContext, p: P) => Promise<unknown>,
): ActionKind<Action, P> {
  return {
    prepare: (a, s, t) => prepare(a as Of<T>, s, t),
    execute: (ctx, p) => call(ctx.service, ctx.serviceContext, p),
  };
}

function handlesOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
  const handles = list
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .map((v) => {
      if (v && typeof v === 'object' && typeof (v as { handle?: unknown }).handle === 'string') return (v as { handle: string }).handle;
      return String(v ?? '').trim();
    });
  return handles.filter((h) => h !== '').map((h) => h.replace(/^@/, ''));
}

function datePoint(t: Templates, p: { date: string; time?: string; timezone?: string }, s: Scope, field: string) {
  return {
    date: requiredString(t, p.date, s, `${field}.date`),
    time: p.time === undefined ? '' : t.render(p.time, s, `${field}.time`),
    timezone: p.timezone === undefined ? '' : t.render(p.timezone, s, `${field}.timezone`),
  };
}

/** The task action kinds by type. */
export const TASK_ACTIONS: Record<TaskAction['type'], ActionKind<Action, unknown>> = {
  'task.create': kind<'task.create', Parameters<Service['createTask']>[1]>(
    (a, s, t) => {
      const p: Parameters<Service['createTask']>[1] = {
        projectId: requiredString(t, a.projectId, s, 'projectId'),
        text: t.render(a.text, s, 'text'),
      };
      const referenceTaskId = optionalString(t, a.referenceTaskId, s, 'referenceTaskId');
      const placement = optionalString(t, a.placement, s, 'placement');
      if (referenceTaskId !== undefined) p.referenceTaskId = referenceTaskId;
      if (placement !== undefined) p.placement = placement;
      return p;
    },
    (svc, ctx, p) => svc.createTask(ctx, p),
  ),
  'task.update': kind<'task.update', Parameters<Service['updateTask']>[1]>(
    (a, s, t) => ({ ...ref(a, s, t), text: t.render(a.text, s, 'text') }),
    (svc, ctx, p) => svc.updateTask(ctx, p),
  ),
  'task.complete': kind<'task.complete', Parameters<Service['completeTask']>[1]>(ref, (svc, ctx, p) => svc.completeTask(ctx, p)),
  'task.uncomplete': kind<'task.uncomplete', Parameters<Service['uncompleteTask']>[1]>(ref, (svc, ctx, p) => svc.uncompleteTask(ctx, p)),
  'task.delete': kind<'task.delete', Parameters<Service['deleteTask']>[1]>(ref, (svc, ctx, p) => svc.deleteTask(ctx, p)),
  'task.assign': kind<'task.assign', Parameters<Service['assignTask']>[1]>(
    (a, s, t) => ({ ...ref(a, s, t), handles: handlesOf(t.renderValue(a.handles, s, 'handles')) }),
    (svc, ctx, p) => svc.assignTask(ctx, p),
  ),
  'task.setDate': kind<'task.setDate', Parameters<Service['setTaskDate']>[1]>(
    (a, s, t) => {
      const p: Parameters<Service['setTaskDate']>[1] = ref(a, s, t);
      if (a.start) p.start = datePoint(t, a.start, s, 'start');
      if (a.end) p.end = datePoint(t, a.end, s, 'end');
      return p;
    },
    (svc, ctx, p) => svc.setTaskDate(ctx, p),
  ),
  'task.setNote': kind<'task.setNote', Parameters<Service['setTaskNote']>[1]>(
    (a, s, t) => ({
      ...ref(a, s, t),
      type: optionalString(t, a.noteType, s, 'noteType') ?? 'text/plain',
      value: t.render(a.value, s, 'value'),
    }),
    (svc, ctx, p) => svc.setTaskNote(ctx, p),
  ),
  'task.setField': kind<'task.setField', Parameters<Service['setTaskField']>[1]>(
    (a, s, t) => {
      const value = t.renderValue(a.value, s, 'value');
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
        throw permanent('INVALID_INPUT', 'value must render to a string, number or boolean', { field: 'value' });
      }
      return { ...ref(a, s, t), fieldId: requiredString(t, a.fieldId, s, 'fieldId'), value };
    },
    (svc, ctx, p) => svc.setTaskField(ctx, p),
  ),
  'task.move': kind<'task.move', Parameters<Service['moveTask']>[1]>(
    (a, s, t) => ({
      ...ref(a, s, t),
      targetTaskId: requiredString(t, a.targetTaskId, s, 'targetTaskId'),
      position: requiredString(t, a.position, s, 'position'),
    }),
    (svc, ctx, p) => svc.moveTask(ctx, p),
  ),
};
