/** Triggers on project events of the service (docs "Triggers"): created, completed, assigned, joined. */
import { Type } from '@sinclair/typebox';
import type { EventTriggerOf } from '../../../definition/types';
import { defineTrigger } from '../../kind';
import { Scope } from '../../parts';
import { EXAMPLE_IDS, EXAMPLE_TIME, PROJECT_EXAMPLE } from '../../examples';

const PROJECT = ['projectId', 'projectTitle', 'projectLink'] as const;
const project = {
  category: 'Projects',
  source: 'event',
  sideEffects: false,
  parameters: Type.Object({ scope: Type.Optional(Scope()) }),
} as const;

/** The project-event trigger kinds. */
export const PROJECT_EVENT_KINDS = [
  defineTrigger({
    ...project,
    type: 'project.created',
    title: 'Project created',
    summary: 'When a project is created.',
    icon: 'folder-plus',
    variables: { names: [...PROJECT, 'folderId', 'createdBy'], open: false },
    example: { ...PROJECT_EXAMPLE, folderId: EXAMPLE_IDS.folderId, createdBy: EXAMPLE_IDS.handle },
  }),
  defineTrigger({
    ...project,
    type: 'project.completed',
    title: 'Project completed',
    summary: 'When a project is marked done.',
    icon: 'folder-check',
    variables: { names: [...PROJECT, 'completedBy', 'completedAt'], open: false },
    example: { ...PROJECT_EXAMPLE, completedBy: EXAMPLE_IDS.handle, completedAt: EXAMPLE_TIME },
  }),
  defineTrigger({
    ...project,
    type: 'project.assigned',
    title: 'Member added to a project',
    summary: 'When someone is assigned to a project.',
    icon: 'user-round-plus',
    variables: { names: [...PROJECT, 'folderId', 'handle', 'displayName', 'assignedBy'], open: false },
    example: {
      ...PROJECT_EXAMPLE,
      folderId: EXAMPLE_IDS.folderId,
      handle: EXAMPLE_IDS.handle,
      displayName: 'Example Member',
      assignedBy: EXAMPLE_IDS.handle,
    },
  }),
  defineTrigger({
    ...project,
    type: 'project.joined',
    title: 'Member joined a project',
    summary: 'When someone joins a project.',
    icon: 'log-in',
    variables: { names: [...PROJECT, 'folderId', 'handle', 'displayName'], open: false },
    example: { ...PROJECT_EXAMPLE, folderId: EXAMPLE_IDS.folderId, handle: EXAMPLE_IDS.handle, displayName: 'Example Member' },
  }),
] as const;

/** A project event trigger's type (`project.created`, …). */
export type ProjectEventType = (typeof PROJECT_EVENT_KINDS)[number]['type'];

declare module '../../../definition/types' {
  /** The project event triggers (see {@link TriggerTypes}). */
  interface TriggerTypes {
    projectEvents: EventTriggerOf<ProjectEventType>;
  }
}
