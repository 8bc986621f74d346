import { ItemTable } from '../components/ItemTable';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useWorkspaces } from '../workspaces/api';
import { useAutomations, useRuns, useSetEnabled } from './queries';
import { StatusBadge } from './StatusBadge';
import { Gallery } from './Gallery';
import { ImportAutomation } from './AutomationActions';
import type { Automation } from './types';
import { can, deniedProps, PermissionNote } from '../components/permissions';
import { EmptyState } from '../components/EmptyState';
import { Zap } from 'lucide-react';
import { useKinds } from './builder/kinds';

function LastRun({ automationId }: { automationId: string }) {
  const runs = useRuns(automationId, 1);
  const last = runs.data?.[0];
  return last ? (
    <Link to={`/automations/${automationId}/runs/${last.id}`}>
      <StatusBadge status={last.status} />
    </Link>
  ) : (
    <StatusBadge status="never" />
  );
}

function Row({ automation, role }: { automation: Automation; role: string }) {
  const setEnabled = useSetEnabled();
  // The trigger by its label ("Task added"), its type until the catalogue has loaded.
  const trigger = useKinds().data?.triggers.find((k) => k.type === automation.trigger.type)?.title ?? automation.trigger.type;
  // Optimistic: the switch moves at once and moves back if the service refuses.
  const [enabled, setLocal] = useState(automation.enabled);
  useEffect(() => setLocal(automation.enabled), [automation.enabled]);
  return (
    <tr>
      <td>
        <Link to={`/automations/${automation.id}`}>{automation.name}</Link>
        <div className="muted small">
          {trigger} · v{automation.version}
        </div>
      </td>
      <td>
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={enabled}
            disabled={setEnabled.isPending}
            {...deniedProps(role, 'manageAutomations', `automations-denied-${automation.workspaceId}`)}
            onChange={(e) => {
              const next = e.target.checked;
              setLocal(next);
              setEnabled.mutate({ automationId: automation.id, enabled: next }, { onError: () => setLocal(!next) });
            }}
            aria-label={`${automation.name} enabled`}
          />
          {enabled ? 'On' : 'Off'}
        </label>
      </td>
      <td>
        <LastRun automationId={automation.id} />
      </td>
    </tr>
  );
}

function WorkspaceAutomations({ workspaceId, name, role }: { workspaceId: string; name: string; role: string }) {
  const owner = can(role, 'manageAutomations');
  const automations = useAutomations(workspaceId);
  // `?templates=<workspaceId>` shows that workspace's template gallery (a link can open it).
  const [search, setSearch] = useSearchParams();
  const galleryOpen = owner && search.get('templates') === workspaceId;
  const setGallery = (open: boolean) =>
    setSearch(
      (s) => {
        if (open) s.set('templates', workspaceId);
        else s.delete('templates');
        return s;
      },
      { replace: true },
    );
  return (
    <section aria-label={`Automations of ${name}`}>
      <div className="row section-header">
        <h2>{name}</h2>
        <span className="spacer" />
        {owner && (
          <div className="btn-row">
            <Link className="btn btn-primary" to={`/automations/new?workspaceId=${encodeURIComponent(workspaceId)}`}>
              New automation
            </Link>
            <button type="button" className="secondary" aria-expanded={galleryOpen} onClick={() => setGallery(!galleryOpen)}>
              New from template
            </button>
            <ImportAutomation workspaceId={workspaceId} />
          </div>
        )}
      </div>
      <PermissionNote role={role} action="manageAutomations" id={`automations-denied-${workspaceId}`} />
      {galleryOpen && <Gallery workspaceId={workspaceId} onClose={() => setGallery(false)} />}
      {automations.isError && <p className="error">{automations.error.message}</p>}
      <ItemTable
        items={automations.data}
        empty={
          <EmptyState
            icon={Zap}
            title="No automations yet"
            level={3}
            action={
              owner && (
                <button type="button" className="secondary" onClick={() => setGallery(true)}>
                  Browse templates
                </button>
              )
            }
          >
            An automation works for you when something happens: a task is added or changed, a schedule comes round, a webhook or a form
            arrives. {owner ? 'Start from a template, or build your own with New automation.' : 'Owners of this workspace make them.'}
          </EmptyState>
        }
        columns={['Automation', 'Enabled', 'Last run']}
        row={(a) => <Row key={a.id} automation={a} role={role} />}
      />
    </section>
  );
}

/** Every automation of the caller's workspaces, with its on/off switch and last run. */
export function AutomationsList() {
  const workspaces = useWorkspaces();
  return (
    <section>
      <h1>Automations</h1>
      {workspaces.data?.map((w) => (
        <WorkspaceAutomations key={w.id} workspaceId={w.id} name={w.name} role={w.role} />
      ))}
    </section>
  );
}
