import { useQueries, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client';
import { useWorkspaces } from '../api/queries';
import { Decision } from './Decision';
import type { Automation, Run } from './types';

interface Pending {
  automation: Automation;
  run: Run;
  message: string;
}

/** The approvals waiting in the caller's workspaces, newest first (refreshed every 5 s). */
export function usePendingApprovals() {
  const workspaces = useWorkspaces();
  const lists = useQueries({
    queries: (workspaces.data ?? []).map((w) => ({
      queryKey: ['automations', w.id],
      queryFn: async () => unwrap(await api.GET('/api/v1/automations', { params: { query: { workspaceId: w.id } } })).items as unknown as Automation[],
    })),
  });
  const automations = lists.flatMap((l) => l.data ?? []);
  return useQuery({
    queryKey: ['approvals', automations.map((a) => a.id).join(',')],
    enabled: automations.length > 0,
    refetchInterval: 5000,
    queryFn: async (): Promise<Pending[]> => {
      const pending: Pending[] = [];
      for (const automation of automations) {
        const runs = unwrap(
          await api.GET('/api/v1/automations/{automationId}/runs', { params: { path: { automationId: automation.id }, query: { status: 'waiting', limit: 100 } } }),
        ).items as unknown as Run[];
        for (const summary of runs.filter((r) => r.waitingFor?.kind === 'approval')) {
          const run = unwrap(await api.GET('/api/v1/automations/{automationId}/runs/{runId}', { params: { path: { automationId: automation.id, runId: summary.id } } }))
            .item as unknown as Run;
          const step = run.steps?.find((s) => s.id === run.waitingFor?.stepId);
          pending.push({ automation, run, message: String((step?.input as { message?: string } | undefined)?.message ?? '') });
        }
      }
      return pending.sort((a, b) => b.run.createdAt.localeCompare(a.run.createdAt));
    },
  });
}

/** The approvals inbox: what waits for a decision, with the run's context. */
export function Approvals() {
  const pending = usePendingApprovals();
  return (
    <section aria-labelledby="approvals-title">
      <h1 id="approvals-title">Approvals</h1>
      {pending.data?.length === 0 && <p className="muted">Nothing waits for a decision.</p>}
      <ul className="cards">
        {pending.data?.map(({ automation, run, message }) => (
          <li key={run.id} className="card">
            <h2>{message || 'Approval requested'}</h2>
            <p className="muted small">
              <Link to={`/automations/${automation.id}`}>{automation.name}</Link> ·{' '}
              <Link to={`/automations/${automation.id}/runs/${run.id}`}>run {run.id.slice(0, 8)}</Link> · {new Date(run.createdAt).toLocaleString()}
            </p>
            <Decision automationId={automation.id} runId={run.id} />
          </li>
        ))}
      </ul>
    </section>
  );
}
