import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { consentQuery } from './api';

/** How often a form asks how an OAuth2 consent stands, in ms. */
const CONSENT_POLL_MS = 1000;

/**
 * How an OAuth2 consent started with `state` stands, asked every {@link CONSENT_POLL_MS} while it
 * is pending; once it ends, `close` closes the popup and, when connected, `connected` gets the id.
 */
export function useConsent(workspaceId: string, state: string | null, connected: (connectionId: string) => void, close: () => void) {
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
