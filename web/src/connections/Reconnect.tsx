import { useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { api, errorMessage, unwrap } from '../api/client';
import { useRefreshConnections } from './api';
import { ConsentStatus, useConsent } from './consent';

/**
 * "Reconnect" for an OAuth2 connection (docs/integrations.md "OAuth2 connections", step 4): opens
 * the provider's consent in a popup (the whole page when popups are blocked) with the
 * connection's own fields; once the server has the new tokens the connection keeps its id, name
 * and steps, and the row says so.
 */
export function Reconnect({ workspaceId, connection }: { workspaceId: string; connection: { id: string; name: string } }) {
  const refresh = useRefreshConnections(workspaceId);
  const [state, setState] = useState<string | null>(null);
  const popup = useRef<Window | null>(null);
  const start = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST('/api/v1/workspaces/{workspaceId}/connections/{id}/oauth2', {
          params: { path: { workspaceId, id: connection.id } },
          body: {},
        }),
      ).item,
    onSuccess: (item) => {
      setState(item.state);
      if (popup.current && !popup.current.closed) popup.current.location.href = item.authorizationUrl;
      else window.location.assign(item.authorizationUrl);
    },
    onError: () => popup.current?.close(),
  });
  const { consent, ended } = useConsent(
    workspaceId,
    state,
    () => void refresh(),
    () => popup.current?.close(),
  );
  const click = () => {
    // Opened in the click itself, so that the browser allows it; it goes to the consent once the server answers.
    popup.current = window.open('', 'taskspace-oauth', 'popup,width=600,height=720');
    setState(null);
    start.mutate();
  };
  return (
    <>
      <button
        type="button"
        className="secondary"
        onClick={click}
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
