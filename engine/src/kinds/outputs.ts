/**
 * The service's items as the engine's steps return them, declared once for every kind that
 * outputs one (the data picker and the catalogue show them). The engine does not import the
 * service, so these are the engine's own declarations of the REST items; the contract test
 * (test/automations/task-output-contract.test.ts) holds them equal, structurally, to the
 * server's `TaskSchema` and `ProjectSchema`, and a real step's output to the REST read of the
 * same item. A leaf module: it imports only TypeBox.
 */
import { Type } from '@sinclair/typebox';

/** A task as the API returns it (`GET /projects/{projectId}/tasks/{taskId}`): `parentId` only on subtasks. */
export const TaskOutput = Type.Object(
  { id: Type.String(), text: Type.String(), completed: Type.Boolean(), parentId: Type.Optional(Type.String()) },
  { title: 'Task' },
);

/** A project as the API returns it (`GET /projects/{projectId}`): times ISO 8601, `completedAt` null unless completed. */
export const ProjectOutput = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    folderId: Type.String(),
    workspaceId: Type.String(),
    completed: Type.Boolean(),
    completedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    isTemplate: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'Project' },
);
