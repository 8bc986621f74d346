import type { Services } from '../../services';
import { likeClause, likeContains } from '../../platform/db/like';
import { OAUTH_ORIGIN_META, type OAuthOrigin } from '../../auth/oauth-origin';
import type { AutomationRuntime } from '../engine-host/runtime';

/**
 * Disables every enabled automation created or last changed through the given grant, or through
 * any grant of the given client (its queued and waiting runs are cancelled, as by
 * `POST /automations/{id}/disable`). Called when a grant is revoked or a client deleted.
 * @returns the ids of the automations disabled.
 */
export async function disableAutomationsOfOAuth(
  svc: Services,
  rt: AutomationRuntime,
  by: { grantId: string } | { clientId: string },
): Promise<string[]> {
  const q = svc.store.sql;
  const [key, value] = 'grantId' in by ? ['grantId', by.grantId] : ['clientId', by.clientId];
  // A cheap pre-filter on the stored JSON; each candidate is then checked on its parsed record.
  const candidates = await svc.store.run(
    q.all<{ id: string }>(`SELECT id FROM automations WHERE ${likeClause(q.dialect, 'meta_json')}`, [likeContains(value)]),
  );
  const disabled: string[] = [];
  for (const { id } of candidates) {
    const automation = await rt.engine.getAutomation(id);
    const origin = automation?.meta[OAUTH_ORIGIN_META] as OAuthOrigin | undefined;
    if (!automation || !automation.enabled || !origin || origin[key as keyof OAuthOrigin] !== value) continue;
    await rt.engine.setEnabled(id, false);
    disabled.push(id);
  }
  return disabled;
}
