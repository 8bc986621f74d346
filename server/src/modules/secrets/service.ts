import type { Query, Sql } from '../../platform/db/query';
import { SECRET_MIN_LENGTH } from '@taskspace/engine';
import type { Actor } from '../../auth/tokens';
import { requireWorkspace } from '../../auth/access';
import { badRequest, conflict, notFound } from '../../errors';
import type { Services } from '../../services';

/**
 * Workspace secrets (docs/automations.md "Secrets"): named values an automation reads as
 * `{{ secrets.NAME }}`. Owners set, rotate and delete them; the value is write-only — sealed at
 * rest with the app's key, never returned, and masked as `[secret NAME]` in everything a run
 * records.
 */

/** A secret's name: an upper-case letter, then upper-case letters, digits and `_`; at most 64 characters. */
export const SECRET_NAME_PATTERN = '^[A-Z][A-Z0-9_]{0,63}$';

/** Longest secret value, in characters. */
export const SECRET_MAX_LENGTH = 8192;

/** A secret as listed: never its value. Times in ms since the epoch. */
export interface SecretInfo {
  name: string;
  createdAt: number;
  updatedAt: number;
  /** Handle of who set the current value; null once that account is gone. */
  updatedBy: string | null;
  /** The workspace's automations whose definition reads it (enabled or not). */
  usedBy: { id: string; name: string; enabled: boolean }[];
}

/** Matches `secrets.NAME` and `secrets['NAME']` / `secrets["NAME"]` inside templates. */
const REFERENCE = /\bsecrets\s*(?:\.\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*['"]([^'"\]]+)['"]\s*\])/g;

/**
 * The secret names a definition (any JSON value) reads, each once, in order of appearance: its
 * `{{ secrets.NAME }}` references, then a webhook trigger's `verify.secret` (the secret its
 * signature check reads).
 */
export function secretReferences(definition: unknown): string[] {
  const names = new Set<string>();
  for (const match of JSON.stringify(definition).matchAll(REFERENCE)) names.add((match[1] ?? match[2])!);
  const trigger = (definition as { trigger?: { type?: unknown; verify?: { secret?: unknown } } } | null)?.trigger;
  if (trigger?.type === 'webhook' && typeof trigger.verify?.secret === 'string') names.add(trigger.verify.secret);
  return [...names];
}

interface AutomationRow {
  id: string;
  definition: string;
  enabled: number;
}

/** The automations that read secrets, each with the names it reads (see {@link secretReaders}). */
type SecretReaders = { id: string; name: string; enabled: boolean; reads: string[] }[];

/**
 * The automations of a workspace that read secrets, each with the names it reads (one query).
 * The LIKE only narrows the rows read (`secrets` templates, `verify` of webhook triggers): it is
 * case-insensitive on SQLite and not on PostgreSQL, and either way {@link secretReferences} keeps
 * exactly the definitions reading a secret.
 */
function* secretReaders(q: Sql, workspaceId: string): Query<SecretReaders> {
  const rows = yield* q.all<AutomationRow>(
    "SELECT id, definition_json AS definition, enabled FROM automations WHERE workspace_id = ? AND (definition_json LIKE '%secrets%' OR definition_json LIKE '%verify%') ORDER BY created_at, id",
    [workspaceId],
  );
  return rows
    .map((row) => {
      const definition = JSON.parse(row.definition) as { name?: unknown };
      return { id: row.id, name: String(definition.name ?? ''), enabled: row.enabled === 1, reads: secretReferences(definition) };
    })
    .filter((automation) => automation.reads.length > 0);
}

/** The automations of a workspace that read `name`. */
function automationsUsing(readers: SecretReaders, name: string): SecretInfo['usedBy'] {
  return readers
    .filter((a) => a.reads.includes(name))
    .map(({ id, name: automationName, enabled }) => ({ id, name: automationName, enabled }));
}

/**
 * The secrets of a workspace by name (Owners), with the automations that read each.
 * @throws ServiceError 404/403 from the workspace check.
 */
export function* listSecrets(svc: Services, actor: Actor, workspaceId: string, q: Sql = svc.store.sql): Query<SecretInfo[]> {
  yield* requireWorkspace(q, actor, workspaceId, 'Owner', 'listing secrets');
  const readers = yield* secretReaders(q, workspaceId);
  const rows = yield* q.all<Omit<SecretInfo, 'usedBy'>>(
    `SELECT s.name, s.created_at AS "createdAt", s.updated_at AS "updatedAt", u.handle AS "updatedBy"
       FROM workspace_secrets s LEFT JOIN users u ON u.id = s.updated_by WHERE s.workspace_id = ? ORDER BY s.name`,
    [workspaceId],
  );
  return rows.map((row) => ({ ...row, usedBy: automationsUsing(readers, row.name) }));
}

/**
 * Sets a secret (Owners): creates it, or rotates its value — runs read the new value from their
 * next step on. Returns the secret's listing and whether it was created.
 * @throws ServiceError 404/403 from the workspace check; 400 for a value shorter than
 * {@link SECRET_MIN_LENGTH} characters (it could not be masked reliably).
 */
export function* setSecret(
  svc: Services,
  actor: Actor,
  workspaceId: string,
  name: string,
  value: string,
  q: Sql = svc.store.sql,
): Query<{ secret: SecretInfo; created: boolean }> {
  yield* requireWorkspace(q, actor, workspaceId, 'Owner', 'setting secrets');
  if (value.length < SECRET_MIN_LENGTH)
    throw badRequest(
      'value',
      'too_short',
      `value must be at least ${SECRET_MIN_LENGTH} characters, so that it can be masked in run journals`,
    );
  const now = svc.clock.now();
  const sealed = svc.secretBox.seal(value);
  // One transaction: two concurrent first writes of a name cannot both insert (PostgreSQL).
  const updated = yield* q.transaction(function* (tx) {
    const changes = (yield* tx.run(
      'UPDATE workspace_secrets SET value_sealed = ?, updated_by = ?, updated_at = ? WHERE workspace_id = ? AND name = ?',
      [sealed, actor.userId, now, workspaceId, name],
    )).changes;
    if (changes === 0) {
      yield* tx.run(
        'INSERT INTO workspace_secrets (workspace_id, name, value_sealed, created_by, updated_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [workspaceId, name, sealed, actor.userId, actor.userId, now, now],
      );
    }
    return changes;
  });
  const secret = (yield* listSecrets(svc, actor, workspaceId, q)).find((s) => s.name === name)!;
  return { secret, created: updated === 0 };
}

/**
 * Deletes a secret (Owners), unless an enabled automation reads it.
 * @throws ServiceError 404 when the workspace has no such secret (or is not the caller's), 403
 * below Owner, 409 CONFLICT (reason `in_use`, `details.automations`) while enabled automations read it.
 */
export function* deleteSecret(svc: Services, actor: Actor, workspaceId: string, name: string, q: Sql = svc.store.sql): Query<void> {
  yield* requireWorkspace(q, actor, workspaceId, 'Owner', 'deleting secrets');
  // The check and the delete in one transaction: no automation starts reading it in between (PostgreSQL).
  yield* q.transaction(function* (tx) {
    const users = automationsUsing(yield* secretReaders(tx, workspaceId), name).filter((a) => a.enabled);
    if (users.length > 0) {
      throw conflict(
        `secret ${name} is read by ${users.length} enabled automation(s): ${users.map((a) => a.name).join(', ')}; disable or change them first`,
        {
          field: 'name',
          reason: 'in_use',
          automations: users.map(({ id, name: automationName }) => ({ id, name: automationName })),
        },
      );
    }
    if ((yield* tx.run('DELETE FROM workspace_secrets WHERE workspace_id = ? AND name = ?', [workspaceId, name])).changes === 0)
      throw notFound('secret', name);
  });
}

/**
 * The secret values of a workspace by name, for the engine (`{{ secrets.NAME }}`).
 * @throws SecretUnreadableError when the app's key cannot open them (a changed key).
 */
export function* secretValues(svc: Services, workspaceId: string, q: Sql = svc.store.sql): Query<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const row of yield* q.all<{ name: string; sealed: string }>(
    'SELECT name, value_sealed AS sealed FROM workspace_secrets WHERE workspace_id = ?',
    [workspaceId],
  )) {
    values[row.name] = svc.secretBox.open(row.sealed);
  }
  return values;
}

/**
 * The secret names a definition reads that the workspace does not have.
 */
export function* unknownSecrets(q: Sql, workspaceId: string, definition: unknown): Query<string[]> {
  const rows = yield* q.all<{ name: string }>('SELECT name FROM workspace_secrets WHERE workspace_id = ?', [workspaceId]);
  const known = new Set(rows.map((row) => row.name));
  return secretReferences(definition).filter((name) => !known.has(name));
}
