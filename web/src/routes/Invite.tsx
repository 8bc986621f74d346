import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, errorMessage } from '../api/client';
import { useMe } from '../api/queries';

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
  const preview = useQuery({
    queryKey: ['invitation', token],
    queryFn: async () => unwrap(await api.POST('/api/v1/auth/invitations/preview', { body: { token } })).item,
    retry: false,
    enabled: token !== '',
  });
  const done = async () => {
    await queries.invalidateQueries();
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
            <CreateAccount token={token} suggestedHandle={offer.handle ?? ''} onDone={done} />
            <p className="small">
              Already have an account? <Link to={`/sign-in?next=${encodeURIComponent(here)}`}>Sign in to join with it</Link>
            </p>
          </>
        )}
      </section>
    </main>
  );
}

/** Creates the account through the invitation, then signs in with the same password. */
function CreateAccount({ token, suggestedHandle, onDone }: { token: string; suggestedHandle: string; onDone: () => Promise<void> }) {
  const [handle, setHandle] = useState(suggestedHandle);
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
        <input name="handle" autoComplete="username" required value={handle} onChange={(e) => setHandle(e.target.value)} />
      </label>
      <label>
        Display name (optional)
        <input name="displayName" autoComplete="name" value={displayName} onChange={(e) => setDisplayName(e.target.value)} />
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
