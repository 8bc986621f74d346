import { ActionError, type PieceInfo, type PieceRunner } from '@taskspace/engine';
import type { Actor } from '../../auth/tokens';
import { requireWorkspace } from '../../auth/access';
import { badRequest, notFound, ServiceError } from '../../errors';
import type { Services } from '../../services';
import { openConnection } from './service';

/**
 * A connection's test, and what it shares with the other piece calls made for the API
 * (`pieces/calls.ts`): a piece call in the worker pool with the connection; the piece's failure
 * is a 502 UPSTREAM_ERROR with its (masked) message. Kept in `connections/` (the pieces module
 * imports connections, never the other way).
 */

/** What a connection's test needs of the server's pieces (`pieces/host.ts` `ServerPieces`). */
export interface PieceCalls {
  catalogue: { find(name: string): PieceInfo | undefined };
  runner: Pick<PieceRunner, 'call'>;
}

/** Time limit of an options or test call, in ms. */
export const API_CALL_TIMEOUT_MS = 30_000;

/** Maps a piece call's failure to the API error: 400 for a wrong connection, else 502 UPSTREAM_ERROR. @throws always. */
export function upstream(error: unknown): never {
  if (error instanceof ActionError) {
    if (error.code === 'CONNECTION_MISMATCH' || error.code === 'CONNECTION_NOT_FOUND')
      throw badRequest('connectionId', 'invalid_value', error.message);
    throw new ServiceError(502, 'UPSTREAM_ERROR', `the piece failed: ${error.message}`, { field: 'piece', reason: error.code });
  }
  throw error;
}

/**
 * Tests a stored connection with the piece's `auth.validate` (Collaborators and Owners).
 * @throws ServiceError 404 (no such connection), 403; 502 when the piece fails.
 */
export async function testConnection(
  svc: Services,
  pieces: PieceCalls,
  actor: Actor,
  workspaceId: string,
  id: string,
): Promise<{ valid: boolean; checked: boolean; error?: string }> {
  await svc.store.run(requireWorkspace(svc.store.sql, actor, workspaceId, 'Collaborator', 'testing connections'));
  const connection = await svc.store.run(openConnection(svc, workspaceId, id));
  if (!connection) throw notFound('connection', id);
  const piece: PieceInfo | undefined = pieces.catalogue.find(connection.piece);
  if (!piece) throw badRequest('piece', 'not_found', `the piece '${connection.piece}' is no longer installed`);
  try {
    const out = (await pieces.runner.call({
      piece,
      op: 'validate',
      connectionId: id,
      context: { workspaceId },
      timeoutMs: API_CALL_TIMEOUT_MS,
    })) as {
      valid?: unknown;
      checked?: unknown;
      error?: unknown;
    };
    return { valid: out.valid === true, checked: out.checked === true, ...(typeof out.error === 'string' ? { error: out.error } : {}) };
  } catch (error) {
    upstream(error);
  }
}
