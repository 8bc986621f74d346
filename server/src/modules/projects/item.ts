import { Type, type Static } from '@sinclair/typebox';
import { nullable } from '../../http/schemas';

/**
 * The project item, declared once (spec section 4.2): its TypeBox schema (the routes answer with
 * it, the OpenAPI document and the web's types come from it), its type, the columns it is read
 * from and the one function that turns such a row into the item. Imports nothing of the
 * projects module, so the service, the schemas and the routes all take it from here. The
 * engine's `project.create` declares the same shape (`ProjectOutput`), held equal by
 * test/automations/task-output-contract.test.ts.
 */

/** The project item: `completedAt` and `createdAt` are ISO 8601, `completedAt` null unless completed. */
export const ProjectSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    folderId: Type.String(),
    workspaceId: Type.String(),
    completed: Type.Boolean(),
    completedAt: nullable(Type.String({ format: 'date-time' })),
    isTemplate: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

/**
 * A project as the API returns it: `completed` is true between complete and restore;
 * templates (`isTemplate`) are listed by the folder's templates and are the sources of
 * from-template.
 */
export type Project = Static<typeof ProjectSchema>;

/** A row selected with {@link PROJECT_COLUMNS}: times in ms since the epoch, `is_template` 0 or 1. */
export interface ProjectRow {
  id: string;
  name: string;
  folder_id: string;
  workspace_id: string;
  completed_at: number | null;
  is_template: number;
  created_at: number;
}

/** The columns of a {@link ProjectRow}, from `projects p`: `SELECT ${PROJECT_COLUMNS} FROM projects p`. */
export const PROJECT_COLUMNS = 'p.id, p.name, p.folder_id, p.workspace_id, p.completed_at, p.is_template, p.created_at';

/** The API item for a project row. */
export function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    folderId: row.folder_id,
    workspaceId: row.workspace_id,
    completed: row.completed_at !== null,
    completedAt: row.completed_at === null ? null : new Date(row.completed_at).toISOString(),
    isTemplate: row.is_template === 1,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
