import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useWorkspaces } from '../workspaces/api';
import { approvalsQuery } from './api';
import { Decision } from './Decision';
import { approversSentence } from '../components/permissions';
import { EmptyState } from '../components/EmptyState';
import { Inbox } from 'lucide-react';

/**
 * The approvals waiting in the caller's workspaces, newest first (one request per workspace,
 * refreshed every 5 s).
 */
export function usePendingApprovals() {
  const workspaces = useWorkspaces();
  return useQueries({
    queries: (workspaces.data ?? []).map((w) => approvalsQuery(w.id)),
    combine: (results) => ({
      data: results.every((r) => r.isSuccess)
        ? results.flatMap((r) => r.data!).sort((a, b) => b.requestedAt.localeCompare(a.requestedAt))
        : undefined,
    }),
  });
}

/** The approvals inbox: what waits for a decision, with the run's context. */
export function Approvals() {
  const pending = usePendingApprovals();
  return (
    <section aria-labelledby="approvals-title">
      <h1 id="approvals-title">Approvals</h1>
      {pending.data?.length === 0 && (
        <EmptyState icon={Inbox} title="Nothing waits for a decision">
          When an automation reaches an approval step it waits here until someone it names approves or rejects it.
        </EmptyState>
      )}
      <ul className="cards">
        {pending.data?.map(({ automationId, automationName, runId, message, requestedAt, approvers, youMayDecide }) => (
          <li key={runId} className="card">
            <h2>{message || 'Approval requested'}</h2>
            <p className="muted small">
              <Link to={`/automations/${automationId}`}>{automationName}</Link> ·{' '}
              <Link to={`/automations/${automationId}/runs/${runId}`}>run {runId.slice(0, 8)}</Link> ·{' '}
              {new Date(requestedAt).toLocaleString()}
              {approvers.length > 0 ? ` · approvers: ${approvers.map((h) => `@${h}`).join(', ')}` : ''}
            </p>
            {youMayDecide ? (
              <Decision automationId={automationId} runId={runId} />
            ) : (
              <p className="help permission-note">{approversSentence(approvers)}</p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
