import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { useMe } from '../profile/api';
import {
  oauthGrantsQuery,
  sessionsQuery,
  tokensQuery,
  useChangePassword,
  useCreateToken,
  useEndSession,
  useRevokeGrant,
  useRevokeToken,
} from './api';
import { ItemTable } from '../components/ItemTable';
import { CopyField } from '../components/CopyButton';
import { MailPreferences } from './MailPreferences';
import { EmailAddress } from './EmailAddress';

function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}

/**
 * Settings → My account (docs "Accounts and sign-in", "Personal access tokens"): the plan, rate
 * tier and verification (read-only: the administrator sets them), change the
 * password (which signs out every other session), see and end sessions, and manage personal
 * access tokens (a new token is shown once).
 */
export function Account() {
  const me = useMe();
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">My account</h1>
      {me.data && (
        <>
          <p className="muted">
            {me.data.item.displayName} · @{me.data.item.handle}
          </p>
          <dl className="plan" aria-label="Plan">
            <dt>Plan</dt>
            <dd>{me.data.item.plan ?? '—'}</dd>
            <dt>Rate tier</dt>
            <dd>{me.data.item.rateTier ?? '—'}</dd>
            <dt>Account verified</dt>
            <dd>{me.data.item.verified ? 'yes' : 'no'}</dd>
          </dl>
          <p className="muted small">
            Plans and tiers are set by the administrator: npx taskspace user update &lt;handle&gt; --plan … --tier …
          </p>
        </>
      )}
      <EmailAddress />
      <ChangePassword />
      <MailPreferences />
      <Sessions />
      <Tokens />
      <AuthorizedApps />
    </section>
  );
}

/** Changing the password with the current one; the other sessions end (also on the Profile screen). */
export function ChangePassword() {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const change = useChangePassword();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          setCurrent('');
          setNew('');
        },
      },
    );
  };
  return (
    <form onSubmit={submit} className="card wide" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <input type="text" name="username" autoComplete="username" hidden readOnly value="" />
      <label>
        Current password
        <input
          type="password"
          autoComplete="current-password"
          required
          value={currentPassword}
          onChange={(e) => setCurrent(e.target.value)}
        />
      </label>
      <label>
        New password (at least 10 characters)
        <input
          type="password"
          autoComplete="new-password"
          minLength={10}
          required
          value={newPassword}
          onChange={(e) => setNew(e.target.value)}
        />
      </label>
      {change.error && (
        <p role="alert" className="error">
          {errorMessage(change.error)}
        </p>
      )}
      {change.isSuccess && <p role="status">Password changed; your other sessions are signed out.</p>}
      <button type="submit" disabled={change.isPending}>
        Change password
      </button>
    </form>
  );
}

function Sessions() {
  const sessions = useQuery(sessionsQuery());
  const end = useEndSession();
  return (
    <>
      <h2>Sessions</h2>
      <ItemTable
        items={sessions.data}
        empty="No browser sessions (you are using a token)."
        columns={['Browser', 'Signed in', 'Last used', 'Actions']}
        row={(s) => (
          <tr key={s.id}>
            <td>
              {s.userAgent ?? 'Unknown browser'}
              {s.current ? <strong> (this browser)</strong> : null}
            </td>
            <td>{when(s.createdAt)}</td>
            <td>{when(s.lastUsedAt)}</td>
            <td>
              {!s.current && (
                <button
                  type="button"
                  className="secondary"
                  onClick={() => end.mutate(s.id!)}
                  aria-label={`Sign out the session from ${when(s.createdAt)}`}
                >
                  Sign out
                </button>
              )}
            </td>
          </tr>
        )}
      />
    </>
  );
}

function Tokens() {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<'write' | 'read'>('write');
  const [days, setDays] = useState('90');
  const [shown, setShown] = useState<string | null>(null);
  const tokens = useQuery(tokensQuery());
  const create = useCreateToken();
  const revoke = useRevokeToken();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setShown(null);
    const expiresAt = days === 'never' ? undefined : new Date(Date.now() + Number(days) * 24 * 3600 * 1000).toISOString();
    create.mutate(
      { name, scope, ...(expiresAt ? { expiresAt } : {}) },
      {
        onSuccess: (item) => {
          setShown(item.token ?? null);
          setName('');
        },
      },
    );
  };
  return (
    <>
      <h2>Personal access tokens</h2>
      <form onSubmit={submit} className="card wide" aria-labelledby="token-title">
        <h3 id="token-title">New token</h3>
        <label>
          Name
          <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} placeholder="n8n on my laptop" />
        </label>
        <label>
          Scope
          <select value={scope} onChange={(e) => setScope(e.target.value as 'write' | 'read')}>
            <option value="write">Read and write</option>
            <option value="read">Read only</option>
          </select>
        </label>
        <label>
          Expires
          <select value={days} onChange={(e) => setDays(e.target.value)}>
            <option value="30">in 30 days</option>
            <option value="90">in 90 days</option>
            <option value="365">in a year</option>
            <option value="never">never</option>
          </select>
        </label>
        {create.error && (
          <p role="alert" className="error">
            {errorMessage(create.error)}
          </p>
        )}
        {shown && (
          <div role="status" className="secret stack">
            <span>Your new token (shown once — copy it now):</span>
            <CopyField value={shown} label="Copy the new token" />
          </div>
        )}
        <button type="submit" disabled={create.isPending}>
          Create token
        </button>
      </form>
      <ItemTable
        items={tokens.data}
        empty="No tokens."
        columns={['Name', 'Scope', 'Created', 'Last used', 'Expires', 'Actions']}
        row={(t) => (
          <tr key={t.id}>
            <td>{t.name}</td>
            <td>{t.scope}</td>
            <td>{when(t.createdAt)}</td>
            <td>{when(t.lastUsedAt)}</td>
            <td>{t.expiresAt ? when(t.expiresAt) : 'never'}</td>
            <td>
              <button type="button" className="secondary" onClick={() => revoke.mutate(t.id!)} aria-label={`Revoke token ${t.name}`}>
                Revoke
              </button>
            </td>
          </tr>
        )}
      />
    </>
  );
}

/** The OAuth apps I allowed on a consent page; revoking one ends its tokens at once (docs/oauth.md "Authorized apps"). */
function AuthorizedApps() {
  const grants = useQuery(oauthGrantsQuery());
  const revoke = useRevokeGrant();
  return (
    <>
      <h2>Authorized apps</h2>
      <ItemTable
        items={grants.data}
        empty="You have not authorized any app."
        columns={['App', 'Scopes', 'Authorized', 'Last used', 'Actions']}
        row={(g) => (
          <tr key={g.id}>
            <td>{g.client?.name}</td>
            <td>{g.scopes?.join(', ')}</td>
            <td>{when(g.createdAt)}</td>
            <td>{when(g.lastUsedAt)}</td>
            <td>
              <button
                type="button"
                className="secondary"
                onClick={() => revoke.mutate(g.id!)}
                aria-label={`Revoke access of ${g.client?.name}`}
              >
                Revoke access
              </button>
            </td>
          </tr>
        )}
      />
    </>
  );
}
