import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';

/** The service's minimum password length, in characters (docs "Accounts and sign-in"). */
const PASSWORD_MIN_LENGTH = 10;

/** POSTs JSON to a public auth route; resolves to the error message, or null on success. */
async function post(path: string, body: unknown): Promise<string | null> {
  const res = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.ok) return null;
  const answer = (await res.json().catch(() => ({}))) as { message?: string };
  return answer.message ?? `The request failed (${res.status})`;
}

/**
 * "Forgot password?" (docs "Accounts and sign-in", "Forgotten password"): asks for a handle or
 * email and says a link is on its way — the same words whether or not the account exists.
 */
export function ForgotPassword() {
  const [login, setLogin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const failed = await post('/api/v1/auth/password/forgot', { login });
      if (failed) setError(failed);
      else setSent(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="auth">
      <form className="card" onSubmit={submit} aria-labelledby="forgot-title">
        <h1 id="forgot-title">Reset your password</h1>
        {sent ? (
          <p role="status">
            If an account with an email matches “{login}”, a link to choose a new password is on its way. It works once, for 30 minutes.
          </p>
        ) : (
          <>
            <p>Give your handle or email: we mail a link to choose a new password to the account&apos;s email.</p>
            <label>
              Handle or email
              <input name="login" autoComplete="username" required value={login} onChange={(e) => setLogin(e.target.value)} autoFocus />
            </label>
            {error && (
              <p role="alert" className="error">
                {error}
              </p>
            )}
            <button type="submit" disabled={busy}>
              {busy ? 'Sending…' : 'Send the link'}
            </button>
          </>
        )}
        <p className="small">
          <Link to="/sign-in">Back to sign-in</Link>
        </p>
      </form>
    </main>
  );
}

/** The mailed link's page (`/reset-password?token=…`): choose the new password, then sign in with it. */
export function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const failed = await post('/api/v1/auth/password/reset', { token, password });
      if (failed) setError(failed);
      else setDone(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="auth">
      <form className="card" onSubmit={submit} aria-labelledby="reset-title">
        <h1 id="reset-title">Choose a new password</h1>
        {done ? (
          <p role="status">
            Your password is changed and every other session is signed out. <Link to="/sign-in">Sign in</Link>
          </p>
        ) : token === '' ? (
          <p role="alert" className="error">
            This reset link is incomplete. <Link to="/forgot-password">Ask for a new one</Link>
          </p>
        ) : (
          <>
            <label>
              New password
              <input
                name="password"
                type="password"
                autoComplete="new-password"
                minLength={PASSWORD_MIN_LENGTH}
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                autoFocus
              />
            </label>
            <p className="small">At least {PASSWORD_MIN_LENGTH} characters.</p>
            {error && (
              <p role="alert" className="error">
                {error} <Link to="/forgot-password">Ask for a new link</Link>
              </p>
            )}
            <button type="submit" disabled={busy}>
              {busy ? 'Saving…' : 'Set the new password'}
            </button>
          </>
        )}
      </form>
    </main>
  );
}
