import type { AutomationDefinition, FormTrigger } from '@taskspace/engine';
import type { Query, Sql } from '../../../platform/db/query';
import type { Services } from '../../../services';
import { bearerMatchesAny, resolveInboundUrl } from '../inbound-previous';

/**
 * Hosted forms (docs "Automations", "Form trigger"): the page of a form-triggered automation at
 * `/forms/<id>`, where `<id>` is the automation's inbound URL id. Submissions go through the
 * inbound intake (`receiveInboundCall` with entry `form`), which checks the fields.
 */

/** What the form page shows: the form, or why there is none to fill in. */
export type FormPageState =
  | { kind: 'open'; form: FormTrigger }
  | { kind: 'not_found' }
  | { kind: 'closed'; form: FormTrigger }
  | { kind: 'needs_token'; form: FormTrigger };

/**
 * The state of the form page `/forms/<id>` for a visitor holding `token` (from the link's query).
 * Unknown ids and automations without a form trigger are `not_found`; a disabled automation's form
 * is `closed`; a form that requires a token and was opened without the right one is `needs_token`.
 */
export function* formPageState(svc: Services, id: string, token: string | undefined, q: Sql = svc.store.sql): Query<FormPageState> {
  // A former URL id or token of a rotation works while its overlap lasts (inbound/inbound-previous.ts).
  const current = yield* resolveInboundUrl(q, id, svc.clock.now());
  const row = current
    ? yield* q.get<{ token_hash: string | null; enabled: number; definition_json: string }>(
        `SELECT w.token_hash, a.enabled, a.definition_json FROM inbound_webhooks w JOIN automations a ON a.id = w.automation_id WHERE w.id = ?`,
        [current.id],
      )
    : undefined;
  const trigger = row ? (JSON.parse(row.definition_json) as AutomationDefinition).trigger : undefined;
  if (!row || trigger?.type !== 'form') return { kind: 'not_found' };
  if (row.enabled !== 1) return { kind: 'closed', form: trigger };
  if (
    row.token_hash !== null &&
    !bearerMatchesAny(token === undefined ? undefined : `Bearer ${token}`, [row.token_hash, current!.previousTokenHash])
  ) {
    return { kind: 'needs_token', form: trigger };
  }
  return { kind: 'open', form: trigger };
}
