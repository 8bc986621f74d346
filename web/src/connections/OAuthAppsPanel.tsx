import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, errorMessage, unwrap } from '../api/client';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { ItemTable } from '../components/ItemTable';
import { connectionKeys, useOAuthApps, type PieceSummary } from './api';
import './connections.css';

/** Where providers send the browser back (docs/integrations.md "OAuth2 apps"): register it with each app. */
const CALLBACK_PATH = '/api/v1/connections/oauth2/callback';

/**
 * Owners: the provider apps OAuth2 pieces connect with (docs/integrations.md "OAuth2 apps") — the
 * workspace's own (client id and a write-only secret) and the instance's from its configuration.
 */
export function OAuthAppsPanel({ workspaceId, pieces }: { workspaceId: string; pieces: PieceSummary[] }) {
  const queries = useQueryClient();
  const apps = useOAuthApps(workspaceId);
  const refresh = () => queries.invalidateQueries({ queryKey: connectionKeys.apps(workspaceId) });
  const [piece, setPiece] = useState('');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const save = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.PUT('/api/v1/workspaces/{workspaceId}/oauth2-apps/{piece}', {
          params: { path: { workspaceId, piece } },
          body: { clientId, clientSecret },
        }),
      ).item,
    onSuccess: () => {
      setClientId('');
      setClientSecret('');
    },
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: async (name: string) =>
      unwrap(await api.DELETE('/api/v1/workspaces/{workspaceId}/oauth2-apps/{piece}', { params: { path: { workspaceId, piece: name } } })),
    onSettled: refresh,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const names = new Map(pieces.map((p) => [p.name, p.displayName]));
  return (
    <section aria-labelledby="oauth2-apps-title">
      <h2 id="oauth2-apps-title">Provider apps of OAuth2 pieces</h2>
      <p className="muted">
        OAuth2 pieces connect through an app registered with the provider. Register its redirect URL as{' '}
        <code className="connection-url">{`${window.location.origin}${CALLBACK_PATH}`}</code>.
      </p>
      <form onSubmit={submit} className="card wide" aria-label="Register a provider app">
        <PieceChoice pieces={pieces} value={piece} onChange={setPiece} />
        <label>
          Client id
          <input required maxLength={2000} value={clientId} onChange={(e) => setClientId(e.target.value)} />
        </label>
        <label>
          Client secret (never shown again)
          <input
            type="password"
            autoComplete="off"
            required
            maxLength={8192}
            value={clientSecret}
            onChange={(e) => setClientSecret(e.target.value)}
          />
        </label>
        {save.error && (
          <p role="alert" className="error">
            {errorMessage(save.error)}
          </p>
        )}
        <button type="submit" disabled={save.isPending}>
          Save app
        </button>
      </form>
      {remove.error && (
        <p role="alert" className="error">
          {errorMessage(remove.error)}
        </p>
      )}
      <ItemTable
        items={apps.data}
        empty="No provider apps yet."
        columns={['Piece', 'Client id', 'From', 'Actions']}
        row={(a) => (
          <tr key={a.piece}>
            <td>{names.get(a.piece) ?? a.piece}</td>
            <td>
              <code>{a.clientId}</code>
            </td>
            <td>{a.source === 'workspace' ? 'this workspace' : "the instance's configuration"}</td>
            <td>
              {a.source === 'workspace' && (
                <ConfirmDelete
                  name={a.piece}
                  label={`Delete the provider app of ${names.get(a.piece) ?? a.piece}`}
                  onConfirm={() => remove.mutate(a.piece)}
                />
              )}
            </td>
          </tr>
        )}
      />
    </section>
  );
}

/** The OAuth2 piece a provider app is for. */
function PieceChoice({ pieces, value, onChange }: { pieces: PieceSummary[]; value: string; onChange: (piece: string) => void }) {
  return (
    <label>
      Piece
      <select required value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Choose…</option>
        {pieces.map((p) => (
          <option key={p.name} value={p.name}>
            {p.displayName}
          </option>
        ))}
      </select>
    </label>
  );
}
