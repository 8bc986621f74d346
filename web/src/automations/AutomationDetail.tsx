import { ItemTable } from '../components/ItemTable';
import { Link, useParams } from 'react-router';
import { can, PermissionNote, useRoleIn } from '../components/permissions';
import { useAutomation, useRuns } from './queries';
import { StatusBadge } from './StatusBadge';
import { AutomationActions } from './AutomationActions';
import { Versions } from './Versions';

/** One automation: its definition and its latest runs; Owners edit it, everyone else reads why they cannot. */
export function AutomationDetail() {
  const { automationId = '' } = useParams();
  const automation = useAutomation(automationId);
  const runs = useRuns(automationId, 50);
  const role = useRoleIn(automation.data?.workspaceId);
  const owner = can(role, 'manageAutomations');
  if (automation.isError) return <p className="error">{automation.error.message}</p>;
  const a = automation.data;
  return (
    <section aria-labelledby="automation-title">
      <div className="row">
        <h1 id="automation-title">{a?.name ?? 'Automation'}</h1>
        {owner && (
          <Link className="button" to={`/automations/${automationId}/edit`}>
            Edit
          </Link>
        )}
      </div>
      <PermissionNote role={role} action="manageAutomations" />
      {a && <AutomationActions automation={a} owner={owner} />}
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
      {a && <Versions automationId={automationId} owner={owner} />}
      {a && (
        <details>
          <summary>Definition (JSON)</summary>
          <pre className="code" tabIndex={0} aria-label="Definition (JSON)">
            {JSON.stringify({ name: a.name, description: a.description, trigger: a.trigger, actions: a.actions }, null, 2)}
          </pre>
        </details>
      )}
    </section>
  );
}
