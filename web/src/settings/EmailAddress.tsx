import { useState, type FormEvent } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, errorMessage } from '../api/client';

/** The caller's email and the address waiting for confirmation (`GET /api/v1/me/email`). */
export const emailStatusQuery = queryOptions({
  queryKey: ['me', 'email'] as const,
  queryFn: async () => unwrap(await api.GET('/api/v1/me/email')).item,
});

/**
 * My account → Email (docs "Accounts and sign-in", "Your email address"): the address mail goes
 * to, and changing it — the new one is used only after the person opens the link mailed to it and
 * presses Confirm. Without mail on this Taskspace the change is refused and the reason shown.
 */
export function EmailAddress() {
  const status = useQuery(emailStatusQuery);
  const [email, setEmail] = useState('');
  const [currentPassword, setCurrent] = useState('');
  const queries = useQueryClient();
  const change = useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/v1/me/email', { body: { email: email.trim(), currentPassword } })).item,
    onSuccess: (item) => {
      queries.setQueryData(emailStatusQuery.queryKey, item);
      setEmail('');
      setCurrent('');
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change.mutate();
  };
  const item = status.data;
  return (
    <form onSubmit={submit} className="card wide" aria-labelledby="email-title">
      <h2 id="email-title">Email</h2>
      {status.isError && <p className="error">{errorMessage(status.error)}</p>}
      {item && (
        <p>
          {item.email ? (
            <>
              Mail goes to <strong>{item.email}</strong>.
            </>
          ) : (
            'Your account has no email address: no mail reaches you, and a forgotten password needs an admin.'
          )}
        </p>
      )}
      {item?.pendingEmail && (
        <p role="status">
          We sent a link to <strong>{item.pendingEmail}</strong>. Open it and press Confirm to use that address; until then mail goes to the
          current one.
        </p>
      )}
      <input type="text" name="username" autoComplete="username" hidden readOnly value="" />
      <label>
        New email address
        <input type="email" autoComplete="email" required maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
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
      {change.isError && (
        <p role="alert" className="error">
          {errorMessage(change.error)}
        </p>
      )}
      <div className="btn-row">
        <button type="submit" disabled={change.isPending}>
          Send confirmation link
        </button>
      </div>
    </form>
  );
}
