import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, errorMessage } from '../api/client';
import { workspaceKeys } from '../api/keys';
import { useMe } from '../profile/api';
import { invitationPreviewQuery } from '../workspaces/api';

/** The service's minimum password length, in characters (docs "Accounts and sign-in"). */
const PASSWORD_MIN_LENGTH = 10;

/**
 * The invitation link's page (docs "Invitations and members"): shows the workspace and role
 * offered, then either joins with the signed-in account or creates an account (handle, name,
 * password) and signs it in. Every step is one public API call.
 */
export function Invite() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const me = useMe();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const preview = useQuery(invitationPreviewQuery(token));
  const done = async () => {
    // The invitation is used up: drop its preview so nothing asks for it again (it would be a 400).
    const [invitations] = workspaceKeys.invitation(token);
    queries.removeQueries({ queryKey: workspaceKeys.invitation(token) });
    await queries.invalidateQueries({ predicate: (query) => query.queryKey[0] !== invitations });
    navigate('/', { replace: true });
  };
  const join = useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/v1/invitations/accept', { body: { token } })),
    onSuccess: done,
  });

  if (token === '' || preview.isError) {
    return (
      <main className="auth">
        <section className="card" aria-labelledby="invite-title">
          <h1 id="invite-title">Invitation</h1>
          <p role="alert" className="error">
            {token === '' ? 'This invitation link is incomplete.' : errorMessage(preview.error)}
          </p>
          <Link to="/sign-in">Go to sign-in</Link>
        </section>
      </main>
    );
  }
  if (preview.isPending || me.isPending) return <p className="muted">Loading…</p>;
  const offer = preview.data;
  const here = `/invite?token=${encodeURIComponent(token)}`;

  return (
    <main className="auth">
      <section className="card" aria-labelledby="invite-title">
        <h1 id="invite-title">Join {offer.workspaceName}</h1>
        <p>
          You are invited as <strong>{offer.role}</strong>
          {offer.email ? ` (${offer.email})` : offer.handle ? ` (@${offer.handle})` : ''}.
        </p>
        {me.isSuccess ? (
          <>
            <button type="button" onClick={() => join.mutate()} disabled={join.isPending}>
              Join as @{me.data.item.handle}
            </button>
            {join.isError && (
              <p role="alert" className="error">
                {errorMessage(join.error)}
              </p>
            )}
          </>
        ) : (
          <>
            <CreateAccount token={token} suggestedHandle={offer.handle ?? handleFrom(offer.email ?? '')} onDone={done} />
            <p className="small">
              Already have an account? <Link to={`/sign-in?next=${encodeURIComponent(here)}`}>Sign in to join with it</Link>
            </p>
          </>
        )}
      </section>
    </main>
  );
}

/**
 * A handle suggested from an email address or a name, in the service's handle alphabet (a letter
 * or digit, then letters, digits, '.', '_' or '-', at most 39 characters): "Dana Smith" → "dana.smith".
 */
export function handleFrom(text: string): string {
  const base = (text.split('@')[0] ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, '.')
    .replace(/[^a-z0-9._-]/g, '')
    .replace(/^[._-]+/, '');
  return base.slice(0, 39);
}

/**
 * Creates the account through the invitation, then signs in with the same password. The handle
 * is suggested from the invitation (its handle or email) and, until edited, from the display name.
 */
function CreateAccount({ token, suggestedHandle, onDone }: { token: string; suggestedHandle: string; onDone: () => Promise<void> }) {
  const [handle, setHandle] = useState(suggestedHandle);
  const [handleEdited, setHandleEdited] = useState(false);
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      unwrap(
        await api.POST('/api/v1/auth/invitations/accept', {
          body: { token, handle, password, ...(displayName.trim() ? { displayName: displayName.trim() } : {}) },
        }),
      );
      unwrap(await api.POST('/api/v1/auth/sign-in', { body: { login: handle, password } }));
      await onDone();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} aria-label="Create your account">
      <label>
        Handle
        <input
          name="handle"
          autoComplete="username"
          required
          pattern="[A-Za-z0-9][A-Za-z0-9._\-]{0,38}"
          value={handle}
          onChange={(e) => {
            setHandle(e.target.value);
            setHandleEdited(true);
          }}
        />
        <span className="help">Letters, digits, '.', '_' or '-'; how teammates mention you (@{handle || 'you'}).</span>
      </label>
      <label>
        Display name (optional)
        <input
          name="displayName"
          autoComplete="name"
          value={displayName}
          onChange={(e) => {
            setDisplayName(e.target.value);
            if (!handleEdited && !suggestedHandle) setHandle(handleFrom(e.target.value));
          }}
        />
      </label>
      <label>
        Password (at least {PASSWORD_MIN_LENGTH} characters)
        <input
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={PASSWORD_MIN_LENGTH}
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Creating your account…' : 'Create account and join'}
      </button>
    </form>
  );
}
