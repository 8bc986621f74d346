import { useEffect, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { api, errorMessage, unwrap } from '../api/client';
import { AuthFields, authBody, authDefaults, type AuthValues } from './AuthFields';
import { usePieceAuth, useRefreshConnections } from './api';
import { ConsentStatus, useConsentPopup } from './consent';
import './connections.css';

/**
 * The form that makes a connection to `piece` (docs/web-app.md "Connections"): a name, the way to
 * connect when the piece has several, and its fields — or, for OAuth2, the piece's fields and a
 * "Connect" button that opens the provider's consent in a popup (the whole page when popups are
 * blocked) and waits for the server to have exchanged the code. Values are sent once, never shown again.
 */
export function ConnectionForm({
  workspaceId,
  piece,
  onCreated,
}: {
  workspaceId: string;
  piece: string;
  onCreated: (connection: { id: string; name: string }) => void;
}) {
  const info = usePieceAuth(piece);
  const refresh = useRefreshConnections(workspaceId);
  const [which, setWhich] = useState(0);
  const auth = info.data?.auth[which];
  const [name, setName] = useState('');
  const [values, setValues] = useState<AuthValues>({});
  useEffect(() => setValues(authDefaults(auth)), [auth]);
  useEffect(() => {
    if (info.data && name === '') setName(info.data.displayName);
  }, [info.data, name]);

  const create = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST('/api/v1/workspaces/{workspaceId}/connections', {
          params: { path: { workspaceId } },
          body: { piece, name, auth: authBody(auth!, values) as { type: string } },
        }),
      ).item,
    onSuccess: (item) => {
      void refresh();
      onCreated(item);
    },
  });
  const { open, start, consent, ended } = useConsentPopup(
    workspaceId,
    async () =>
      unwrap(
        await api.POST('/api/v1/workspaces/{workspaceId}/connections/oauth2', {
          params: { path: { workspaceId } },
          body: { piece, name, props: values },
        }),
      ).item,
    (connectionId) => {
      void refresh();
      onCreated({ id: connectionId, name });
    },
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!auth) return;
    // The popup opens in the submit itself, so that the browser allows it.
    if (auth.type === 'OAUTH2') open();
    else create.mutate();
  };
  if (info.error)
    return (
      <p role="alert" className="error">
        {errorMessage(info.error)}
      </p>
    );
  if (!info.data || !auth) return <p className="muted">Loading…</p>;
  const error = create.error ?? start.error;
  return (
    <form onSubmit={submit} className="connection-form" aria-label={`New ${info.data.displayName} connection`}>
      <label>
        Connection name
        <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      {info.data.auth.length > 1 && <AuthChoice auth={info.data.auth} which={which} onChange={setWhich} />}
      <AuthFields auth={auth} values={values} onChange={setValues} />
      {auth.type !== 'OAUTH2' && <p className="help">Values are stored encrypted and never shown again.</p>}
      {error && (
        <p role="alert" className="error">
          {errorMessage(error)}
        </p>
      )}
      <ConsentStatus ended={ended} error={consent.data?.error} />
      <button type="submit" disabled={create.isPending || start.isPending || ended === 'pending'}>
        {auth.type === 'OAUTH2' ? 'Connect' : 'Save connection'}
      </button>
    </form>
  );
}

/** The choice between a piece's ways to connect, when it has several. */
function AuthChoice({
  auth,
  which,
  onChange,
}: {
  auth: { type: string; displayName?: string }[];
  which: number;
  onChange: (i: number) => void;
}) {
  return (
    <label>
      Connect with
      <select value={which} onChange={(e) => onChange(Number(e.target.value))}>
        {auth.map((a, i) => (
          <option key={a.type} value={i}>
            {a.type === 'OAUTH2' ? 'OAuth2 (sign in at the provider)' : a.displayName}
          </option>
        ))}
      </select>
    </label>
  );
}
