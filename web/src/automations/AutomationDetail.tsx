import { ItemTable } from '../components/ItemTable';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../api/client';
import { useWorkspaces } from '../api/queries';
import { useAutomation, useRuns } from './queries';
import { StatusBadge } from './StatusBadge';

/** The kept versions of an automation; Owners roll back to one (it becomes a new version). */
function Versions({ automationId, owner }: { automationId: string; owner: boolean }) {
  const queries = useQueryClient();
  const versions = useQuery({
    queryKey: ['versions', automationId],
    queryFn: async () => unwrap(await api.GET('/api/v1/automations/{automationId}/versions', { params: { path: { automationId } } })).items,
  });
  const restore = useMutation({
    mutationFn: async (version: number) =>
      unwrap(
        await api.POST('/api/v1/automations/{automationId}/versions/{version}/restore', {
          params: { path: { automationId, version } },
          body: {},
        }),
      ),
    onSettled: () => queries.invalidateQueries(),
  });
  return (
    <>
      <h2>Versions</h2>
      {restore.error && (
        <p role="alert" className="error">
          {restore.error instanceof ApiError ? restore.error.message : 'Could not restore'}
        </p>
      )}
      <ItemTable
        items={versions.data}
        empty="No versions."
        columns={owner ? ['Version', 'Saved', 'Actions'] : ['Version', 'Saved']}
        row={(v) => (
          <tr key={v.version}>
            <td>
              v{v.version}
              {v.current ? <strong> (current)</strong> : null}
            </td>
            <td>{v.createdAt ? new Date(v.createdAt).toLocaleString() : ''}</td>
            {owner && (
              <td>
                {!v.current && (
                  <button type="button" className="secondary" disabled={restore.isPending} onClick={() => restore.mutate(v.version!)}>
                    Restore v{v.version}
                  </button>
                )}
              </td>
            )}
          </tr>
        )}
      />
    </>
  );
}

/** One automation: its definition and its latest runs. */
export function AutomationDetail() {
  const { automationId = '' } = useParams();
  const automation = useAutomation(automationId);
  const runs = useRuns(automationId, 50);
  const workspaces = useWorkspaces();
  if (automation.isError) return <p className="error">{automation.error.message}</p>;
  const a = automation.data;
  return (
    <section aria-labelledby="automation-title">
      <div className="row">
        <h1 id="automation-title">{a?.name ?? 'Automation'}</h1>
        <Link className="button" to={`/automations/${automationId}/edit`}>
          Edit
        </Link>
      </div>
      {a && (
        <p className="muted">
          {a.enabled ? 'Enabled' : 'Disabled'} · trigger {a.trigger.type} · version {a.version}
          {a.owner?.handle ? ` · acts as @${a.owner.handle}` : ''}
        </p>
      )}
      {a?.webhook?.url && (
        <p>
          Inbound URL: <code>{a.webhook.url}</code>
        </p>
      )}
      <h2>Runs</h2>
      <ItemTable
        items={runs.data}
        empty="No runs yet."
        columns={['Run', 'Status', 'Version', 'Started']}
        row={(r) => (
          <tr key={r.id}>
            <td>
              <Link to={`/automations/${automationId}/runs/${r.id}`}>{r.id.slice(0, 8)}</Link>
              {r.test ? ' (test)' : ''}
            </td>
            <td>
              <StatusBadge status={r.status} />
            </td>
            <td>v{r.version}</td>
            <td>{new Date(r.createdAt).toLocaleString()}</td>
          </tr>
        )}
      />
      {a && <Versions automationId={automationId} owner={workspaces.data?.find((w) => w.id === a.workspaceId)?.role === 'Owner'} />}
      {a && (
        <details>
          <summary>Definition (JSON)</summary>
          <pre className="code">
            {JSON.stringify({ name: a.name, description: a.description, trigger: a.trigger, actions: a.actions }, null, 2)}
          </pre>
        </details>
      )}
    </section>
  );
}
