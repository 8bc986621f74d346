import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { oauthClientsQuery, useOAuthClientChanges } from './api';
import { OwnedWorkspace } from '../components/OwnedWorkspace';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { ItemTable } from '../components/ItemTable';
import { CopyField } from '../components/CopyButton';

type ClientType = 'confidential' | 'public';

/**
 * Settings → OAuth apps (docs/oauth.md "Registering a client"): Owners register the apps that may
 * ask people for access (a confidential app's secret is shown once), see their client ids and
 * redirect URIs, and delete them (every token an app holds stops working).
 */
export function OAuthApps() {
  return (
    <section aria-labelledby="oauth-apps-title">
      <h1 id="oauth-apps-title">OAuth apps</h1>
      <p className="muted">
        Apps registered here can ask anyone with an account for access through <code>/oauth/authorize</code>; each person approves the
        scopes on a consent page.
      </p>
      <OwnedWorkspace action="manageOAuthApps">
        {(workspaceId) => <WorkspaceApps key={workspaceId} workspaceId={workspaceId} />}
      </OwnedWorkspace>
    </section>
  );
}

/** A just-registered app's client ID and its secret (a confidential app's), shown once with copy buttons. */
function ShownCredentials({ id, secret }: { id: string; secret?: string }) {
  return (
    <div role="status" className="secret stack">
      <span>Client ID:</span>
      <CopyField value={id} label="Copy the client ID" />
      {secret && (
        <>
          <span>Client secret (shown once — copy it now):</span>
          <CopyField value={secret} label="Copy the client secret" />
        </>
      )}
    </div>
  );
}

function WorkspaceApps({ workspaceId }: { workspaceId: string }) {
  const clients = useQuery(oauthClientsQuery(workspaceId));
  const { register, remove } = useOAuthClientChanges(workspaceId);
  const [name, setName] = useState('');
  const [redirectUris, setRedirectUris] = useState('');
  const [type, setType] = useState<ClientType>('confidential');
  const [shown, setShown] = useState<{ id: string; secret?: string } | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setShown(null);
    const uris = redirectUris
      .split('\n')
      .map((u) => u.trim())
      .filter(Boolean);
    register.mutate(
      { name, type, redirectUris: uris },
      {
        onSuccess: (item) => {
          setShown({ id: item.id!, secret: item.clientSecret });
          setName('');
          setRedirectUris('');
        },
      },
    );
  };
  return (
    <>
      <form onSubmit={submit} className="card wide" aria-labelledby="register-app-title">
        <h2 id="register-app-title">Register an app</h2>
        <label>
          Name (shown on the consent page)
          <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} placeholder="n8n" />
        </label>
        <label>
          Redirect URIs, one per line (matched exactly)
          <textarea
            required
            rows={3}
            value={redirectUris}
            onChange={(e) => setRedirectUris(e.target.value)}
            placeholder="https://n8n.example.com/rest/oauth2-credential/callback"
          />
        </label>
        <label>
          Type
          <select value={type} onChange={(e) => setType(e.target.value as ClientType)}>
            <option value="confidential">Confidential: runs on a server and keeps a secret (n8n)</option>
            <option value="public">Public: a browser or desktop app without a secret (PKCE)</option>
          </select>
        </label>
        {register.error && (
          <p role="alert" className="error">
            {errorMessage(register.error)}
          </p>
        )}
        {shown && <ShownCredentials id={shown.id} secret={shown.secret} />}
        <button type="submit" disabled={register.isPending}>
          Register app
        </button>
      </form>
      <ItemTable
        items={clients.data}
        empty="No apps registered."
        columns={['Name', 'Client ID', 'Type', 'Redirect URIs', 'Registered', 'Actions']}
        row={(c) => (
          <tr key={c.id}>
            <td>{c.name}</td>
            <td>
              <code>{c.id}</code>
            </td>
            <td>{c.type}</td>
            <td>
              {c.redirectUris?.map((u) => (
                <div key={u}>
                  <code>{u}</code>
                </div>
              ))}
            </td>
            <td>
              {c.createdAt ? new Date(c.createdAt).toLocaleDateString() : '—'}
              {c.createdBy ? ` by @${c.createdBy}` : ''}
            </td>
            <td>
              <ConfirmDelete name={c.name!} label={`Delete the app ${c.name}`} onConfirm={() => remove.mutate(c.id!)} />
            </td>
          </tr>
        )}
      />
    </>
  );
}
