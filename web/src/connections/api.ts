import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { automationKeys, connectionKeys } from '../api/keys';

/** The query keys of connections, from web/src/api/keys.ts (docs/architecture.md "Web data access"). */
export { connectionKeys };

/** What a piece's connection form asks (`GET /api/v1/automations/pieces/{piece}/auth`). */
export function usePieceAuth(piece: string | undefined) {
  return useQuery({
    queryKey: connectionKeys.auth(piece ?? ''),
    enabled: piece !== undefined && piece !== '',
    staleTime: Infinity,
    queryFn: async () => unwrap(await api.GET('/api/v1/automations/pieces/{piece}/auth', { params: { path: { piece: piece! } } })).item,
  });
}

/** One way to connect to a piece, as the form renders it. */
export type PieceAuth = NonNullable<ReturnType<typeof usePieceAuth>['data']>['auth'][number];

/** A connection as listed (never its value). */
export interface Connection {
  id: string;
  name: string;
  piece: string;
  authType: string;
  createdAt: string;
  createdBy: string | null;
}

/** The workspace's connections (all pieces). */
export function useConnections(workspaceId: string) {
  return useQuery({
    queryKey: connectionKeys.all(workspaceId),
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/workspaces/{workspaceId}/connections', { params: { path: { workspaceId }, query: {} } })).items,
  });
}

/** The workspace's OAuth apps (any member; never a secret). */
export function useOAuthApps(workspaceId: string) {
  return useQuery({
    queryKey: connectionKeys.apps(workspaceId),
    queryFn: async () => unwrap(await api.GET('/api/v1/workspaces/{workspaceId}/oauth2-apps', { params: { path: { workspaceId } } })).items,
  });
}

/** The workspace's connections of `piece` (all pieces without one), as the builder's connection picker offers them; nothing is read unless `enabled`. */
export const pieceConnectionsQuery = (workspaceId: string | undefined, piece: string | undefined, enabled: boolean) =>
  queryOptions({
    queryKey: connectionKeys.ofPiece(workspaceId, piece),
    enabled: enabled && workspaceId !== undefined,
    queryFn: async () =>
      unwrap(
        await api.GET('/api/v1/workspaces/{workspaceId}/connections', {
          params: { path: { workspaceId: workspaceId! }, query: piece ? { piece } : {} },
        }),
      ).items,
  });

/** Drops every cached connection list of the workspace (the screen's and the builder pickers'). */
export function useRefreshConnections(workspaceId: string) {
  const queries = useQueryClient();
  return () => queries.invalidateQueries({ queryKey: connectionKeys.all(workspaceId) });
}

/** A piece as the kinds catalogue names it. */
export interface PieceSummary {
  name: string;
  displayName: string;
  authTypes: string[];
}

/** The installed pieces that take a connection, by display name (from the kinds catalogue). */
export function usePieces() {
  return useQuery({
    queryKey: automationKeys.kinds(),
    staleTime: Infinity,
    queryFn: async () => unwrap(await api.GET('/api/v1/automations/kinds')),
    select: (catalogue): PieceSummary[] => {
      const byName = new Map<string, PieceSummary>();
      for (const kind of [...catalogue.actions, ...catalogue.triggers]) {
        const piece = (kind as { piece?: PieceSummary }).piece;
        if (piece && piece.authTypes.length > 0 && !byName.has(piece.name)) byName.set(piece.name, piece);
      }
      return [...byName.values()].sort((a, b) => a.displayName.localeCompare(b.displayName));
    },
  });
}

/**
 * How the OAuth2 consent started with `state` stands (`GET …/connections/oauth2/{state}`), asked
 * every `pollMs` while pending; idle while `state` is null.
 */
export function consentQuery(workspaceId: string, state: string | null, pollMs: number) {
  return queryOptions({
    queryKey: ['oauth2-consent', workspaceId, state] as const,
    enabled: state !== null,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? pollMs : false),
    queryFn: async () =>
      unwrap(
        await api.GET('/api/v1/workspaces/{workspaceId}/connections/oauth2/{state}', { params: { path: { workspaceId, state: state! } } }),
      ).item,
  });
}
