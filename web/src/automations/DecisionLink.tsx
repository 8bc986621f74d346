import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap, errorMessage } from '../api/client';

/**
 * The page a decision link opens (docs "Approvals that reach people"): the approval's message and
 * context, and Approve / Reject as the signed-in person. The link works once.
 */
export function DecisionLink() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [comment, setComment] = useState('');
  const request = useQuery({
    queryKey: ['decision-link', token],
    enabled: token !== '',
    retry: false,
    queryFn: async () => unwrap(await api.POST('/api/v1/approvals/inspect', { body: { token } })).item,
  });
  const decide = useMutation({
    mutationFn: async (decision: 'approve' | 'reject') =>
      unwrap(await api.POST('/api/v1/approvals/decide', { body: { token, decision, ...(comment ? { comment } : {}) } })).item,
  });
  if (token === '') return <p className="error">This decision link is incomplete.</p>;
  if (request.isError) {
    return (
      <section aria-labelledby="decision-title">
        <h1 id="decision-title">Approval</h1>
        <p role="alert" className="error">
          {errorMessage(request.error)}
        </p>
      </section>
    );
  }
  const r = request.data;
  if (!r) return <p className="muted">Loading…</p>;
  return (
    <section aria-labelledby="decision-title">
      <h1 id="decision-title">{r.message || 'Approval requested'}</h1>
      <p className="muted">
        <Link to={`/automations/${r.automationId}`}>{r.automationName}</Link> ·{' '}
        <Link to={`/automations/${r.automationId}/runs/${r.runId}`}>run {r.runId?.slice(0, 8)}</Link>
        {r.approvers && r.approvers.length > 0 ? ` · approvers: ${r.approvers.map((h) => `@${h}`).join(', ')}` : ''}
        {r.expiresAt ? ` · link valid until ${new Date(r.expiresAt).toLocaleString()}` : ''}
      </p>
      {decide.isSuccess ? (
        <p role="status">Recorded: the run is now {decide.data.status}.</p>
      ) : !r.pending ? (
        <p role="status">This approval has already been decided.</p>
      ) : (
        <div className="decision">
          <label>
            Comment (optional)
            <input value={comment} onChange={(e) => setComment(e.target.value)} maxLength={2000} />
          </label>
          <div className="row">
            <button type="button" disabled={decide.isPending} onClick={() => decide.mutate('approve')}>
              Approve
            </button>
            <button type="button" className="secondary" disabled={decide.isPending} onClick={() => decide.mutate('reject')}>
              Reject
            </button>
          </div>
          {decide.error && (
            <p role="alert" className="error">
              {errorMessage(decide.error)}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
