import { requireWorkspace } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import { ServiceError } from '../../errors';
import { fromEngineError } from '../../http/engine-errors';
import type { Services } from '../../services';
import type { AutomationRuntime } from '../engine-host/runtime';
import { checkReferences } from './references';

/** One problem of a draft: the field it names, a stable reason and a message (docs "Checked when saved"). */
export interface DraftProblem {
  field: string;
  reason: string;
  message: string;
}

/** A draft's problem as the save would report it, or `undefined` when `error` is not a refusal of the draft. */
function problemOf(error: unknown): DraftProblem | undefined {
  const mapped = fromEngineError(error);
  if (!(mapped instanceof ServiceError) || mapped.statusCode !== 400 || mapped.code !== 'VALIDATION_ERROR') return undefined;
  return { field: mapped.details?.field ?? '', reason: mapped.details?.reason ?? 'invalid', message: mapped.message };
}

/**
 * The save-time checks of a draft without saving it (docs "Automations", "Checked when saved"):
 * the engine's validation against the definition schema, then the workspace checks (members,
 * references, secrets, variables). Owner of the workspace, as for a save.
 * @returns the first problem a save would be refused for, or none.
 * @throws ServiceError 403/404 for the workspace, as a save would.
 */
export async function checkDraft(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  workspaceId: string,
  draft: unknown,
): Promise<DraftProblem[]> {
  await svc.store.run(requireWorkspace(svc.store.sql, actor, workspaceId, 'Owner', 'checking an automation'));
  try {
    const definition = rt.engine.validate(draft);
    await svc.store.run(checkReferences(svc.store.sql, svc, rt.engine.kinds, workspaceId, definition));
    return [];
  } catch (error) {
    const problem = problemOf(error);
    if (!problem) throw fromEngineError(error);
    return [problem];
  }
}
