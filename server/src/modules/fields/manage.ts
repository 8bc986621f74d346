import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Query, Sql } from '../../platform/db/query';
import { requireProject } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import { badRequest, conflict } from '../../errors';
import type { Services } from '../../services';
import { fieldRows, listFields, requireField, toDefinition, type FieldDefinition } from './service';
import { fieldOrderBody, fieldParams, fieldPatchBody, fieldResponses, fieldsResponses, okResponses, projectParams } from './schemas';

/**
 * Renames a field (Collaborator); names stay unique per project ignoring case.
 * @throws ServiceError 404 for an unknown project or field, 403, 409 PROJECT_COMPLETED, 409 CONFLICT `name` `duplicate_value`.
 */
export function renameField(
  svc: Services,
  actor: Actor,
  projectId: string,
  fieldId: string,
  name: string,
  q: Sql = svc.store.sql,
): Query<FieldDefinition> {
  return q.transaction(function* (tx) {
    yield* requireProject(tx, actor, projectId, 'Collaborator', { mutation: true, action: 'renaming a field' });
    const field = yield* requireField(tx, projectId, fieldId);
    const wanted = name.toLowerCase();
    if ((yield* fieldRows(tx, projectId)).some((f) => f.id !== fieldId && f.name.toLowerCase() === wanted)) {
      throw conflict(`the project already has a field named '${name}'`, { field: 'name', reason: 'duplicate_value' });
    }
    yield* tx.run('UPDATE fields SET name = ? WHERE id = ?', [name, fieldId]);
    return toDefinition({ ...field, name });
  });
}

/**
 * Deletes a field with every task's value of it (Collaborator). Raises no `field.changed`: the
 * definition goes, not a value of a task (docs/automations.md "Task change events").
 * @throws ServiceError 404 for an unknown project or field, 403, 409 PROJECT_COMPLETED.
 */
export function deleteField(svc: Services, actor: Actor, projectId: string, fieldId: string, q: Sql = svc.store.sql): Query<void> {
  return q.transaction(function* (tx) {
    yield* requireProject(tx, actor, projectId, 'Collaborator', { mutation: true, action: 'deleting a field' });
    yield* requireField(tx, projectId, fieldId);
    yield* tx.run('DELETE FROM task_field_values WHERE field_id = ?', [fieldId]);
    yield* tx.run('DELETE FROM fields WHERE id = ?', [fieldId]);
  });
}

/**
 * Puts a project's fields in the order of `fieldIds` (Collaborator): the list order is the fields'
 * creation time, so their times are rewritten, one millisecond apart from the earliest.
 * @throws ServiceError 400 `fieldIds` `invalid_value` unless it names every field of the project once; 404, 403, 409 PROJECT_COMPLETED.
 */
export function reorderFields(
  svc: Services,
  actor: Actor,
  projectId: string,
  fieldIds: readonly string[],
  q: Sql = svc.store.sql,
): Query<FieldDefinition[]> {
  return q.transaction(function* (tx) {
    yield* requireProject(tx, actor, projectId, 'Collaborator', { mutation: true, action: 'reordering fields' });
    const times = yield* tx.all<{ id: string; created_at: number }>('SELECT id, created_at FROM fields WHERE project_id = ?', [projectId]);
    const known = new Set(times.map((t) => t.id));
    if (fieldIds.length !== known.size || new Set(fieldIds).size !== fieldIds.length || fieldIds.some((id) => !known.has(id))) {
      throw badRequest('fieldIds', 'invalid_value', 'fieldIds must name every field of the project exactly once');
    }
    const base = Math.min(...times.map((t) => Number(t.created_at)));
    for (const [i, id] of fieldIds.entries()) yield* tx.run('UPDATE fields SET created_at = ? WHERE id = ?', [base + i, id]);
    return yield* listFields(svc, actor, projectId, tx);
  });
}

/** Field management (docs "API", "Custom fields"): rename, delete, reorder. */
export const fieldManageRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const tags = ['fields'];
  app.put(
    '/projects/:projectId/fields/order',
    {
      schema: {
        tags,
        summary: "Reorder a project's custom fields",
        params: projectParams,
        body: fieldOrderBody,
        response: fieldsResponses,
      },
    },
    async (request) => ({
      ok: true,
      items: await svc.store.run(reorderFields(svc, request.actor, request.params.projectId, request.body.fieldIds)),
    }),
  );
  app.patch(
    '/projects/:projectId/fields/:fieldId',
    { schema: { tags, summary: 'Rename a custom field', params: fieldParams, body: fieldPatchBody, response: fieldResponses } },
    async (request) => ({
      ok: true,
      item: await svc.store.run(renameField(svc, request.actor, request.params.projectId, request.params.fieldId, request.body.name)),
    }),
  );
  app.delete(
    '/projects/:projectId/fields/:fieldId',
    { schema: { tags, summary: 'Delete a custom field and its values', params: fieldParams, response: okResponses } },
    async (request) => {
      await svc.store.run(deleteField(svc, request.actor, request.params.projectId, request.params.fieldId));
      return { ok: true };
    },
  );
};
