import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';

/**
 * The mailed confirmation link's page (`/verify-email?token=…`; docs "Your email address"):
 * opening it changes nothing (mail scanners open links); pressing Confirm makes the address the
 * account's. No sign-in needed: the link is the proof.
 */
export function VerifyEmail() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [error, setError] = useState<string | null>(null);
  const [email, setEmail] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch('/api/v1/auth/email/verify', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      const answer = (await res.json().catch(() => ({}))) as { item?: { email: string }; message?: string; error?: { message?: string } };
      if (res.ok && answer.item) setEmail(answer.item.email);
      else setError(answer.error?.message ?? answer.message ?? `The request failed (${res.status})`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="auth">
      <section className="card" aria-labelledby="verify-title">
        <h1 id="verify-title">Confirm your email address</h1>
        {email ? (
          <p role="status">
            Done: mail now goes to <strong>{email}</strong>. <Link to="/settings/account">My account</Link>
          </p>
        ) : token === '' ? (
          <p role="alert" className="error">
            This confirmation link is incomplete. Ask for a new one under <Link to="/settings/account">My account</Link>.
          </p>
        ) : (
          <>
            <p>Press Confirm to use the address this link was mailed to for your Taskspace account.</p>
            {error && (
              <p role="alert" className="error">
                {error}
              </p>
            )}
            <button type="button" onClick={() => void confirm()} disabled={busy}>
              {busy ? 'Confirming…' : 'Confirm'}
            </button>
          </>
        )}
      </section>
    </main>
  );
}
