/**
 * The service actions beyond the task writes (docs "Actions"): add a comment, read one task, find
 * tasks, create a project. Each calls the matching optional {@link Service} method
 * (`executor.ts`); a host without it fails the step with the permanent `NOT_SUPPORTED`.
 */
import { Type } from '@sinclair/typebox';
import { SERVICE_ACTIONS } from './executor';
import { TASK_FIND_DEFAULT_LIMIT, TASK_FIND_MAX_LIMIT } from './service-actions';
import { defineAction } from '../../kind';
import { Ref, Scalar, Template, TEMPLATE_MAX } from '../../parts';
import { ProjectOutput, TaskOutput } from '../../outputs';

const ref = { projectId: Ref('project', { title: 'Project' }), taskId: Ref('task', { title: 'Task' }) };
const work = { sideEffects: true, timeout: true } as const;

/** The service action kinds (their TS types: `service-actions.ts`). */
export const SERVICE_KINDS = [
  defineAction({
    ...work,
    type: 'comment.create',
    title: 'Add a comment',
    summary: 'Comments on a task, as the automation.',
    category: 'Tasks',
    icon: 'message-square-plus',
    parameters: Type.Object({
      ...ref,
      text: Template({ title: 'Comment', description: 'At most 10,000 characters once rendered; may span lines.' }),
    }),
    output: Type.Object({ id: Type.String(), text: Type.String(), author: Type.String(), createdAt: Type.String() }, { title: 'Comment' }),
    executor: SERVICE_ACTIONS['comment.create'],
  }),
  defineAction({
    type: 'task.get',
    title: 'Get a task',
    summary: 'Reads one task with its assignees and field values.',
    category: 'Tasks',
    icon: 'file-search',
    sideEffects: false,
    timeout: true,
    parameters: Type.Object(ref),
    output: Type.Object(
      {
        ...TaskOutput.properties,
        assignees: Type.Array(Type.Object({ handle: Type.String(), displayName: Type.String() })),
        fields: Type.Array(Type.Object({ fieldId: Type.String(), name: Type.String(), value: Type.Unknown() })),
      },
      { title: 'Task' },
    ),
    executor: SERVICE_ACTIONS['task.get'],
  }),
  defineAction({
    type: 'task.find',
    title: 'Find tasks',
    summary: "Lists a project's tasks matching filters, one page at a time.",
    category: 'Tasks',
    icon: 'list-filter',
    sideEffects: false,
    timeout: true,
    parameters: Type.Object({
      projectId: ref.projectId,
      filter: Type.Optional(
        Type.Object(
          {
            text: Type.Optional(Template({ title: 'Text contains', description: 'Case-insensitive.' })),
            completed: Type.Optional(
              Type.Unsafe<boolean | string>({
                type: ['boolean', 'string'],
                maxLength: TEMPLATE_MAX,
                title: 'Completed',
                description: 'true, false, or a template rendering to one.',
              }),
            ),
            assignee: Type.Optional(Template({ title: 'Assignee', 'x-picker': 'member' })),
            field: Type.Optional(
              Type.Object(
                { fieldId: Ref('field', { title: 'Field' }), value: Scalar({ title: 'Value' }) },
                { additionalProperties: false, title: 'Field value equals' },
              ),
            ),
          },
          { additionalProperties: false, title: 'Filter', description: 'All given filters must hold.' },
        ),
      ),
      limit: Type.Optional(
        Type.Integer({ minimum: 1, maximum: TASK_FIND_MAX_LIMIT, default: TASK_FIND_DEFAULT_LIMIT, title: 'Page size' }),
      ),
      after: Type.Optional(Template({ title: 'After', description: 'The `next` of a previous page.' })),
    }),
    output: Type.Object({ items: Type.Array(TaskOutput), next: Type.Optional(Type.String()) }, { title: 'Page of tasks' }),
    executor: SERVICE_ACTIONS['task.find'],
  }),
  defineAction({
    ...work,
    type: 'project.create',
    title: 'Create a project',
    summary: 'Creates a project, optionally with tasks from markdown.',
    category: 'Projects',
    icon: 'folder-plus',
    parameters: Type.Object({
      folderId: Type.Optional(Ref('folder', { title: 'Folder', description: "Absent: the workspace's home folder." })),
      name: Type.String({ minLength: 1, maxLength: TEMPLATE_MAX, title: 'Name', 'x-editor': 'template' }),
      content: Type.Optional(Template({ title: 'Content', description: 'Markdown whose list items become tasks.' })),
    }),
    output: ProjectOutput,
    executor: SERVICE_ACTIONS['project.create'],
  }),
] as const;
