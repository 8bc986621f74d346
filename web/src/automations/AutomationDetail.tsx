import { ItemTable } from '../components/ItemTable';
import { Link, useParams } from 'react-router';
import { can, PermissionNote, useRoleIn } from '../components/permissions';
import { useAutomation, useRuns } from './queries';
import { StatusBadge } from './StatusBadge';
import { AutomationActions } from './AutomationActions';
import { TriggerStatus } from './TriggerStatus';
import { Versions } from './Versions';
import { useKinds } from './builder/kinds';

/** One automation: its definition and its latest runs; Owners edit it, everyone else reads why they cannot. */
export function AutomationDetail() {
  const { automationId = '' } = useParams();
  const automation = useAutomation(automationId);
  const runs = useRuns(automationId, 50);
  const role = useRoleIn(automation.data?.workspaceId);
  const owner = can(role, 'manageAutomations');
  // The trigger by its kind's title ("Task added"), its type until the catalogue has loaded.
  const kinds = useKinds();
  const triggerType = automation.data?.trigger.type;
  const trigger = kinds.data?.triggers.find((k) => k.type === triggerType)?.title ?? triggerType;
  if (automation.isError) return <p className="error">{automation.error.message}</p>;
  const a = automation.data;
  return (
    <section aria-labelledby="automation-title">
      <div className="page-header">
        <div>
          <h1 id="automation-title">{a?.name ?? 'Automation'}</h1>
          {a && (
            <p className="muted">
              <span className={a.enabled ? 'badge badge-success' : 'badge'}>{a.enabled ? 'Enabled' : 'Disabled'}</span> · {trigger} ·
              version {a.version}
              {a.owner?.handle ? ` · acts as @${a.owner.handle}` : ''}
            </p>
          )}
        </div>
        {a && <AutomationActions automation={a} owner={owner} />}
      </div>
      <PermissionNote role={role} action="manageAutomations" />
      {a && <TriggerStatus automationId={automationId} />}
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
