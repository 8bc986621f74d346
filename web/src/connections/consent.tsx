import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { consentQuery } from './api';

/** How often a form asks how an OAuth2 consent stands, in ms. */
const CONSENT_POLL_MS = 1000;

/**
 * How an OAuth2 consent started with `state` stands, asked every {@link CONSENT_POLL_MS} while it
 * is pending; once it ends, `close` closes the popup and, when connected, `connected` gets the id.
 */
function useConsent(workspaceId: string, state: string | null, connected: (connectionId: string) => void, close: () => void) {
  const consent = useQuery(consentQuery(workspaceId, state, CONSENT_POLL_MS));
  const ended = consent.data?.status;
  useEffect(() => {
    if (ended === 'pending' || ended === undefined) return;
    close();
    if (ended === 'connected' && consent.data?.connectionId) connected(consent.data.connectionId);
    // The callbacks change identity each render; the consent's end is what matters.
  }, [ended]);
  return { consent, ended };
}

/** A consent the server started: its `state` and the provider's page to send the user to. */
export interface StartedConsent {
  state: string;
  authorizationUrl: string;
}

/**
 * An OAuth2 consent in a popup (the whole page when popups are blocked), for the Connect and
 * Reconnect buttons: `open()`, called in the click itself so that the browser allows the popup,
 * opens it, asks the server for a consent with `begin` and sends the popup to its authorization
 * URL; the consent is then polled ({@link useConsent}) and the popup closed once it ends.
 * @returns `open`, the start's mutation (its error), the consent's query and how it ended.
 */
export function useConsentPopup(workspaceId: string, begin: () => Promise<StartedConsent>, connected: (connectionId: string) => void) {
  const [state, setState] = useState<string | null>(null);
  const popup = useRef<Window | null>(null);
  const start = useMutation({
    mutationFn: begin,
    onSuccess: (item) => {
      setState(item.state);
      if (popup.current && !popup.current.closed) popup.current.location.href = item.authorizationUrl;
      else window.location.assign(item.authorizationUrl);
    },
    onError: () => popup.current?.close(),
  });
  const { consent, ended } = useConsent(workspaceId, state, connected, () => popup.current?.close());
  const open = () => {
    popup.current = window.open('', 'taskspace-oauth', 'popup,width=600,height=720');
    setState(null);
    start.mutate();
  };
  return { open, start, consent, ended };
}

/** Where an OAuth2 consent stands, while it waits or once it failed. */
export function ConsentStatus({ ended, error }: { ended: string | undefined; error?: string | null }) {
  if (ended === 'pending') return <p role="status">Waiting for the consent in the other window…</p>;
  if (ended !== 'failed') return null;
  return (
    <p role="alert" className="error">
      {error ?? 'The connection was not made.'}
    </p>
  );
}
