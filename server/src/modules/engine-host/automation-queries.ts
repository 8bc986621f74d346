import type { AutomationDefinition, AutomationRecord } from '@taskspace/engine';
import type { Query, Sql } from '../../platform/db/query';
import { inboundLinkOf } from './inbound-link';
import { retentionColumns, saveOf, staleVersion } from './version-save';
import { AUTOMATION_FROM, toAutomation, type AutomationRow } from './run-rows';

/**
 * The run store's statements on automations, their kept versions, inbound URLs and schedule slots.
 * Each is a {@link Query} run through the `q` it is given: the store's connection, or the caller's
 * transaction.
 */

/** The automation (with its inbound URL) behind an inbound URL id, read through `q` (the caller's transaction, if any). */
export function* automationOfInboundUrl(q: Sql, inboundId: string): Query<AutomationRecord | undefined> {
  const row = yield* q.get<AutomationRow>(`${AUTOMATION_FROM} WHERE w.id = ?`, [inboundId]);
  return row ? toAutomation(row) : undefined;
}

/** The automation (with its inbound URL) of an id. */
export function* automationById(q: Sql, id: string): Query<AutomationRecord | undefined> {
  const row = yield* q.get<AutomationRow>(`${AUTOMATION_FROM} WHERE a.id = ?`, [id]);
  return row ? toAutomation(row) : undefined;
}

/** Automations (with their inbound URL) matching `condition` (SQL after WHERE, from constants), with `params`. */
export function* automationsWhere(q: Sql, condition: string, params: unknown[]): Query<AutomationRecord[]> {
  return (yield* q.all<AutomationRow>(`${AUTOMATION_FROM} WHERE ${condition}`, params)).map(toAutomation);
}

/** The definition of one kept version. */
export function* definitionOf(q: Sql, automationId: string, version: number): Query<AutomationDefinition | undefined> {
  const row = yield* q.get<{ definition_json: string }>(
    'SELECT definition_json FROM automation_versions WHERE automation_id = ? AND version = ?',
    [automationId, version],
  );
  return row ? (JSON.parse(row.definition_json) as AutomationDefinition) : undefined;
}

/** An automation's schedule slot (ms epoch of the last fired slot), if it has one. */
export function* scheduleSlotOf(q: Sql, automationId: string): Query<number | undefined> {
  const row = yield* q.get<{ schedule_slot: number | null }>('SELECT schedule_slot FROM automations WHERE id = ?', [automationId]);
  return row?.schedule_slot ?? undefined;
}

/** `meta` as stored in `meta_json`: without the inbound URL, which has its own table. */
function storedMeta(a: AutomationRecord): string {
  const { inbound: _inbound, save: _save, ...rest } = a.meta;
  return JSON.stringify(rest);
}

/** Writes an automation's inbound URL row to match its record: inserted, token changed, or deleted (inside the caller's transaction). */
function* syncInboundUrl(q: Sql, a: AutomationRecord): Query<void> {
  const link = inboundLinkOf(a);
  if (!link) {
    yield* q.run('DELETE FROM inbound_webhooks WHERE automation_id = ?', [a.id]);
    return;
  }
  // A URL rotated since the record was read (inbound-rotation.ts) is newer than the record's: kept.
  const stored = yield* q.get<{ id: string; created_at: number }>('SELECT id, created_at FROM inbound_webhooks WHERE automation_id = ?', [
    a.id,
  ]);
  if (stored && stored.id !== link.id && Number(stored.created_at) > link.createdAt) return;
  yield* q.run('DELETE FROM inbound_webhooks WHERE automation_id = ? AND id <> ?', [a.id, link.id]);
  // A save carrying the token a rotation just replaced (read before it) keeps the rotated one; a
  // new token set by a save (requireToken turned on) ends any former token's overlap.
  const KEEP = 'inbound_webhooks.token_hash = excluded.token_hash OR excluded.token_hash = inbound_webhooks.previous_token_hash';
  yield* q.run(
    `INSERT INTO inbound_webhooks (id, automation_id, token_hash, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET
       token_hash = CASE WHEN excluded.token_hash = inbound_webhooks.previous_token_hash THEN inbound_webhooks.token_hash ELSE excluded.token_hash END,
       previous_token_hash = CASE WHEN ${KEEP} THEN inbound_webhooks.previous_token_hash END,
       previous_token_expires_at = CASE WHEN ${KEEP} THEN inbound_webhooks.previous_token_expires_at END`,
    [link.id, a.id, link.tokenHash, link.createdAt],
  );
}

/**
 * Stores a new automation (`RunStore.insertAutomation`), its inbound URL and its first kept
 * version, through `tx` (the caller's transaction).
 */
export function* insertAutomationRows(tx: Sql, a: AutomationRecord): Query<void> {
  yield* tx.run(
    `INSERT INTO automations (id, workspace_id, owner_id, trigger_type, version, enabled, definition_json, meta_json, created_at, updated_at,
                              run_retention_days, run_retention_failed_days)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      a.id,
      a.workspaceId,
      a.ownerId,
      a.definition.trigger.type,
      a.version,
      a.enabled ? 1 : 0,
      JSON.stringify(a.definition),
      storedMeta(a),
      a.createdAt,
      a.updatedAt,
      ...retentionColumns(a),
    ],
  );
  yield* syncInboundUrl(tx, a);
  const save = saveOf(a);
  yield* tx.run(
    'INSERT INTO automation_versions (automation_id, version, definition_json, created_at, author_id, message) VALUES (?, ?, ?, ?, ?, ?)',
    [a.id, a.version, JSON.stringify(a.definition), a.updatedAt, save?.authorId ?? a.ownerId, save?.message ?? null],
  );
}

/**
 * Writes a changed automation (`RunStore.updateAutomation`), its inbound URL and its version,
 * through `tx` (the caller's transaction).
 * @throws the stale-version error of `version-save.ts` when the save's `ifVersion` is no longer the stored version.
 */
export function* updateAutomationRows(tx: Sql, a: AutomationRecord): Query<void> {
  const save = saveOf(a);
  const updated = yield* tx.run(
    `UPDATE automations SET trigger_type = ?, version = ?, enabled = ?, definition_json = ?, meta_json = ?, updated_at = ?,
            run_retention_days = ?, run_retention_failed_days = ?
      WHERE id = ?${save?.ifVersion === undefined ? '' : ' AND version = ?'}`,
    [
      a.definition.trigger.type,
      a.version,
      a.enabled ? 1 : 0,
      JSON.stringify(a.definition),
      storedMeta(a),
      a.updatedAt,
      ...retentionColumns(a),
      a.id,
      ...(save?.ifVersion === undefined ? [] : [save.ifVersion]),
    ],
  );
  // If-Match: another save came first (the registry read the version before this transaction).
  if (updated.changes === 0 && save?.ifVersion !== undefined) throw staleVersion();
  yield* syncInboundUrl(tx, a);
  yield* tx.run(
    `INSERT INTO automation_versions (automation_id, version, definition_json, created_at, author_id, message) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (automation_id, version) DO NOTHING`,
    [a.id, a.version, JSON.stringify(a.definition), a.updatedAt, save?.authorId ?? null, save?.message ?? null],
  );
}
