import { Link, useSearchParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { DecisionForm } from './Decision';
import { useMe } from '../profile/api';
import { approversSentence, mayDecideApproval, useRoleIn } from '../components/permissions';
import { automationQuery, automationWrites, decisionLinkQuery } from './api';

/**
 * The page a decision link opens (docs "Approvals that reach people"): the approval's message and
 * context, and Approve / Reject as the signed-in person when they may decide it (a named approver,
 * or Participant and above when none is named; the others read who decides). The link works once.
 */
export function DecisionLink() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const request = useQuery(decisionLinkQuery(token));
  const decide = useMutation({
    mutationFn: ({ approve, comment }: { approve: boolean; comment: string }) => automationWrites.decideByLink(token, approve, comment),
  });
  const me = useMe();
  const automation = useQuery(automationQuery(request.data?.automationId ?? ''));
  const role = useRoleIn(automation.data?.workspaceId);
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
      ) : !mayDecideApproval(r.approvers, me.data?.item.handle, role) ? (
        (r.approvers.length > 0 ? me.data !== undefined : role !== undefined) && (
          <p className="help permission-note">{approversSentence(r.approvers)}</p>
        )
      ) : (
        <DecisionForm
          pending={decide.isPending}
          error={decide.error}
          onDecide={(approve, comment) => decide.mutate({ approve, comment })}
        />
      )}
    </section>
  );
}
