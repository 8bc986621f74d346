import type { Role } from '../../auth/roles';
import type { Actor } from '../../auth/tokens';
import { requireWorkspace } from '../../auth/access';
import { notFound, ServiceError } from '../../errors';
import { fromEngineError } from '../../http/engine-errors';
import type { Services } from '../../services';
import type { AutomationRuntime } from './runtime';

/**
 * Access checks and engine calls shared by the automation, run and inbound functions
 * (`automations/service.ts`, `runs/service.ts`, `inbound/inbound-rotation.ts`): kept in the
 * engine host, the layer below all three, so they never import each other.
 */

/**
 * Runs an engine call, mapping an engine error to the service's error envelope.
 * @throws ServiceError the mapped engine error.
 */
export async function engineCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw fromEngineError(error);
  }
}

/** The automation and the caller's role in its workspace. @throws ServiceError 404 (unknown or not a member), 403. */
export async function requireAutomation(svc: Services, rt: AutomationRuntime, actor: Actor, id: string, min: Role, action: string) {
  const automation = await rt.engine.getAutomation(id);
  if (!automation) throw notFound('automation', id);
  let role: Role;
  try {
    role = await svc.store.run(requireWorkspace(svc.store.sql, actor, automation.workspaceId, min, action));
  } catch (error) {
    if (error instanceof ServiceError && error.statusCode === 404) throw notFound('automation', id);
    throw error;
  }
  return { automation, role };
}
