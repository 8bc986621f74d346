import { api, errorMessage, unwrap } from '../api/client';
import { useRefreshConnections } from './api';
import { ConsentStatus, useConsentPopup } from './consent';

/**
 * "Reconnect" for an OAuth2 connection (docs/integrations.md "OAuth2 connections", step 4): opens
 * the provider's consent in a popup (the whole page when popups are blocked) with the
 * connection's own fields; once the server has the new tokens the connection keeps its id, name
 * and steps, and the row says so.
 */
export function Reconnect({ workspaceId, connection }: { workspaceId: string; connection: { id: string; name: string } }) {
  const refresh = useRefreshConnections(workspaceId);
  const { open, start, consent, ended } = useConsentPopup(
    workspaceId,
    async () =>
      unwrap(
        await api.POST('/api/v1/workspaces/{workspaceId}/connections/{id}/oauth2', {
          params: { path: { workspaceId, id: connection.id } },
          body: {},
        }),
      ).item,
    () => void refresh(),
  );
  return (
    <>
      <button
        type="button"
        className="secondary"
        onClick={open}
        disabled={start.isPending || ended === 'pending'}
        aria-label={`Reconnect ${connection.name}`}
      >
        Reconnect
      </button>
      {ended === 'connected' && <p role="status">Reconnected</p>}
      <ConsentStatus ended={ended} error={consent.data?.error} />
      {start.error && (
        <p role="alert" className="error">
          {errorMessage(start.error)}
        </p>
      )}
    </>
  );
}
