import { useState } from 'react';
import { Link } from 'react-router';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { KIND_LISTS } from '../api/lists';
import { useWorkspaces } from '../workspaces/api';
import { History } from 'lucide-react';
import { ItemTable } from '../components/ItemTable';
import { EmptyState } from '../components/EmptyState';
import { automationsQuery, workspaceRunsQuery } from './api';
import { StatusBadge } from './StatusBadge';
import type { Run } from './types';
import { WorkspaceSelect } from '../components/WorkspaceSelect';

/** The run statuses the engine publishes (catalogue `lists.runStatuses`). */
const STATUSES: Run['status'][] = KIND_LISTS.runStatuses;
/** The time filter's choices: label and how far back, in ms (0: no limit). */
const SINCE: [string, number][] = [
  ['Any time', 0],
  ['Last hour', 3600_000],
  ['Last 24 hours', 24 * 3600_000],
  ['Last 7 days', 7 * 24 * 3600_000],
];

function duration(run: Run): string {
  if (!run.startedAt || !run.finishedAt) return '—';
  const ms = Date.parse(run.finishedAt) - Date.parse(run.startedAt);
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Every run across the automations of a workspace (docs "Web app"), newest first, filtered by
 * automation, status and time, a page at a time; each run opens its step timeline.
 */
export function Runs() {
  const workspaces = useWorkspaces();
  const [chosen, setChosen] = useState<string | null>(null);
  const workspace = workspaces.data?.find((w) => w.id === chosen) ?? workspaces.data?.[0];
  const automations = useQuery(automationsQuery(workspace?.id));
  const [automationId, setAutomationId] = useState('');
  const [status, setStatus] = useState('');
  const [since, setSince] = useState(0);
  // The time window is fixed when the filter is picked, so pages stay consistent.
  const [from, setFrom] = useState<string | undefined>(undefined);
  const runs = useInfiniteQuery(workspaceRunsQuery({ workspaceId: workspace?.id, automationId, status, from }));
  const names = new Map((automations.data ?? []).map((a) => [a.id, a.name]));
  const items = runs.data?.pages.flat();
  return (
    <section aria-labelledby="runs-title">
      <h1 id="runs-title">Runs</h1>
      <div className="row filters" role="group" aria-label="Filters">
        <WorkspaceSelect workspaces={workspaces.data ?? []} value={workspace?.id} onChange={setChosen} />
        <label>
          Automation
          <select aria-label="Automation" value={automationId} onChange={(e) => setAutomationId(e.target.value)}>
            <option value="">All automations</option>
            {automations.data?.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select aria-label="Status" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any status</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Created
          <select
            aria-label="Created"
            value={since}
            onChange={(e) => {
              const back = Number(e.target.value);
              setSince(back);
              setFrom(back ? new Date(Date.now() - back).toISOString() : undefined);
            }}
          >
            {SINCE.map(([label, back]) => (
              <option key={label} value={back}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {runs.isError && <p className="error">{runs.error.message}</p>}
      <ItemTable
        items={items}
        empty={
          automationId || status || since ? (
            'No runs match.'
          ) : (
            <EmptyState icon={History} title="No runs yet">
              Each time an automation starts it leaves a run here, with every step, its input and output, and how long it took.
            </EmptyState>
          )
        }
        columns={['Run', 'Automation', 'Status', 'Created', 'Duration']}
        row={(run) => (
          <tr key={run.id}>
            <td>
              <Link to={`/automations/${run.automationId}/runs/${run.id}`}>{run.id.slice(0, 8)}</Link>
              {run.test ? <span className="muted small"> test</span> : null}
            </td>
            <td>
              <Link to={`/automations/${run.automationId}`}>{names.get(run.automationId) ?? run.automationId}</Link>
            </td>
            <td>
              <StatusBadge status={run.status} />
            </td>
            <td>{new Date(run.createdAt).toLocaleString()}</td>
            <td>{duration(run)}</td>
          </tr>
        )}
      />
      {runs.hasNextPage && (
        <button type="button" className="secondary" disabled={runs.isFetchingNextPage} onClick={() => void runs.fetchNextPage()}>
          Load more
        </button>
      )}
    </section>
  );
}
