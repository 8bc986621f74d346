import { redactActions, type AutomationDefinition } from '@taskspace/engine';
import type { Actor } from '../../auth/tokens';
import { isoTime } from '../../platform/clock';
import type { Query, Sql } from '../../platform/db/query';
import { notFound } from '../../errors';
import type { Services } from '../../services';
import type { AutomationRuntime } from '../engine-host/runtime';
import { requireAutomation, updateAutomation, type AutomationItem } from './service';

/**
 * The kept versions of an automation (docs "Automations", "Versions"): the list, one version's
 * definition, and rolling back. Each version names who saved it and the save's message.
 */

/** One kept version of an automation, as the API lists it. */
export interface VersionItem {
  version: number;
  /** When the version was saved (ISO 8601). */
  createdAt: string;
  /** Whether this is the version new runs execute. */
  current: boolean;
  /** Who saved the version (absent for versions saved before authors were recorded, or when the account is gone). */
  author?: { handle: string };
  /** The message given with the save, if any. */
  message?: string;
}

interface VersionRow {
  version: number;
  created_at: number;
  message: string | null;
  handle: string | null;
}

/** The versions of an automation, newest first (one version with `version`), with their authors' handles. */
function* versionRows(q: Sql, automationId: string, version?: number): Query<VersionRow[]> {
  return yield* q.all<VersionRow>(
    `SELECT v.version, v.created_at, v.message, u.handle
       FROM automation_versions v LEFT JOIN users u ON u.id = v.author_id
      WHERE v.automation_id = ?${version === undefined ? '' : ' AND v.version = ?'}
      ORDER BY v.version DESC`,
    version === undefined ? [automationId] : [automationId, version],
  );
}

function versionItem(row: VersionRow, current: number): VersionItem {
  const item: VersionItem = { version: row.version, createdAt: isoTime(row.created_at), current: row.version === current };
  if (row.handle !== null) item.author = { handle: row.handle };
  if (row.message !== null) item.message = row.message;
  return item;
}

/** An automation's kept versions, newest first (any member). @throws ServiceError 404. */
export async function listAutomationVersions(svc: Services, rt: AutomationRuntime, actor: Actor, id: string): Promise<VersionItem[]> {
  const { automation } = await requireAutomation(svc, rt, actor, id, 'Viewer', 'reading versions');
  return (await svc.store.run(versionRows(svc.store.sql, id))).map((row) => versionItem(row, automation.version));
}

/** One version as `GET …/versions/{version}` returns it: the definition with the version's details. */
export type VersionDetail = AutomationDefinition & VersionItem & { redacted?: string[] };

/**
 * One version's definition with its author and message (any member; credential values redacted
 * for non-Owners as in `getAutomation`). @throws ServiceError 404 for an unknown automation or version.
 */
export async function getAutomationVersion(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  id: string,
  version: number,
): Promise<VersionDetail> {
  const { automation, role } = await requireAutomation(svc, rt, actor, id, 'Viewer', 'reading versions');
  const definition = await rt.engine.getDefinition(id, version);
  const [kept] = await svc.store.run(versionRows(svc.store.sql, id, version));
  if (!definition || !kept) throw notFound('version', String(version));
  const item: VersionDetail = { ...definition, ...versionItem(kept, automation.version) };
  if (role !== 'Owner') {
    const { actions, redacted } = redactActions(item.actions);
    item.actions = actions;
    if (redacted.length > 0) item.redacted = redacted;
  }
  return item;
}

/**
 * Rolls back to a kept version (Owner): its definition becomes a new version, exactly as if it
 * were saved with {@link updateAutomation} (validated again; the inbound URL follows the trigger),
 * with the message `message` or, without one, `Restored version <n>`.
 * @throws ServiceError 404 for an unknown version; as {@link updateAutomation} otherwise.
 */
export async function restoreAutomationVersion(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  id: string,
  version: number,
  message?: string,
): Promise<AutomationItem> {
  await requireAutomation(svc, rt, actor, id, 'Owner', 'restoring a version');
  const definition = await rt.engine.getDefinition(id, version);
  if (!definition) throw notFound('version', String(version));
  return updateAutomation(svc, rt, actor, id, definition, { message: message ?? `Restored version ${version}` });
}
