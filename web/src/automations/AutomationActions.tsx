import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Copy, Download, Trash2 } from 'lucide-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, errorMessage } from '../api/client';
import { automationKeys } from '../api/keys';
import { ActionMenu, type MenuAction } from '../components/ActionMenu';
import { useConfirmation } from '../components/ConfirmDialog';
import { automationWrites, useSetEnabled, type CreateBody, type ImportBody } from './api';
import type { Automation } from './types';

/** The file name of an export: the automation's name made safe (as the server names it). */
export function exportFileName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${slug || 'automation'}.automation.json`;
}

/** Saves `text` as a file named `name` (a download through a temporary object URL). */
function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Import an exported automation file into a workspace (Owner): a file input; the new automation
 * is created disabled (`POST /api/v1/automations/import`) and opened. Errors (not JSON, wrong
 * format, a field the workspace lacks) show under the button with the field path.
 */
export function ImportAutomation({ workspaceId }: { workspaceId: string }) {
  const id = useId();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const run = useMutation({
    mutationFn: async (file: File) => {
      let document: unknown;
      try {
        document = JSON.parse(await file.text());
      } catch {
        throw new ApiError(400, 'INVALID_JSON', `${file.name} is not a JSON file`);
      }
      const body = { workspaceId, document } as ImportBody;
      return automationWrites.import(body);
    },
    onSuccess: async (item) => {
      await queries.invalidateQueries({ queryKey: automationKeys.lists() });
      void navigate(`/automations/${item.id}`);
    },
  });
  const details = run.error instanceof ApiError ? (run.error.details as { field?: string } | undefined) : undefined;
  return (
    <span className="import-automation">
      <label htmlFor={id} className="button secondary">
        Import
      </label>
      <input
        id={id}
        className="visually-hidden"
        type="file"
        accept="application/json,.json"
        aria-label="Import an automation file"
        disabled={run.isPending}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) run.mutate(file);
        }}
      />
      {run.isError && (
        <span role="alert" className="error small">
          Import failed: {errorMessage(run.error)}
          {details?.field && !run.error.message.includes(details.field) ? ` (${details.field})` : ''}
        </span>
      )}
    </span>
  );
}

/** A disabled copy of `automation`, "(copy)" after its name, as the create route takes it. */
function copyOf(automation: Automation): CreateBody {
  // The definition fields of the item, as the create route takes them (absent ones stay absent).
  const { description, trigger, actions, timeoutMs, concurrency, retention } = automation;
  return {
    name: `${automation.name} (copy)`,
    description,
    trigger,
    actions,
    timeoutMs,
    concurrency,
    retention,
    workspaceId: automation.workspaceId,
    enabled: false,
  };
}

/**
 * The lifecycle actions of one automation, at the right of its page's header (docs/web-app.md
 * "Automations"): for the Owner Enable/Disable and Edit; then the "Automation actions" menu with
 * Export (any member; downloads `GET …/export`) and, for the Owner, Duplicate (a disabled copy
 * named "… (copy)", opened) and Delete automation (after a confirming dialog, then back to the list).
 */
export function AutomationActions({ automation, owner }: { automation: Automation; owner: boolean }) {
  const navigate = useNavigate();
  const queries = useQueryClient();
  const setEnabled = useSetEnabled();
  const [error, setError] = useState<string | null>(null);
  const confirmation = useConfirmation();
  const refresh = () => queries.invalidateQueries({ queryKey: automationKeys.one(automation.id) });

  const exportFile = useMutation({
    mutationFn: () => automationWrites.export(automation.id),
    onSuccess: (document) => download(exportFileName(automation.name), `${JSON.stringify(document, null, 2)}\n`),
    onError: (e) => setError(`Export failed: ${errorMessage(e)}`),
  });
  const duplicate = useMutation({
    mutationFn: () => automationWrites.create(copyOf(automation)),
    onSuccess: async (copy) => {
      await queries.invalidateQueries({ queryKey: automationKeys.lists() });
      void navigate(`/automations/${copy.id}`);
    },
    onError: (e) => setError(`Duplicate failed: ${errorMessage(e)}`),
  });
  const remove = useMutation({
    mutationFn: () => automationWrites.remove(automation.id),
    onSuccess: async () => {
      queries.removeQueries({ queryKey: automationKeys.one(automation.id) });
      await queries.invalidateQueries({ queryKey: automationKeys.lists() });
      void navigate('/automations');
    },
    onError: (e) => setError(`Delete failed: ${errorMessage(e)}`),
  });

  const choose = (run: () => void) => () => {
    setError(null);
    run();
  };
  const menu: MenuAction[] = [
    {
      label: 'Export',
      icon: <Download className="icon" aria-hidden="true" />,
      disabled: exportFile.isPending,
      onSelect: choose(() => exportFile.mutate()),
    },
    ...(owner
      ? [
          {
            label: 'Duplicate',
            icon: <Copy className="icon" aria-hidden="true" />,
            disabled: duplicate.isPending,
            onSelect: choose(() => duplicate.mutate()),
          },
          {
            label: 'Delete automation',
            icon: <Trash2 className="icon" aria-hidden="true" />,
            danger: true,
            separated: true,
            onSelect: choose(() =>
              confirmation.ask({
                title: `Delete “${automation.name}”?`,
                body: 'Its versions and runs are deleted with it, and its inbound URL stops working. This cannot be undone.',
                confirmLabel: 'Delete automation',
                onConfirm: () => remove.mutate(),
              }),
            ),
          },
        ]
      : []),
  ];
  return (
    <div className="row">
      {owner && (
        <button
          type="button"
          className="secondary"
          disabled={setEnabled.isPending}
          onClick={choose(() =>
            setEnabled.mutate(
              { automationId: automation.id, enabled: !automation.enabled },
              { onSettled: () => void refresh(), onError: (e) => setError(errorMessage(e)) },
            ),
          )}
        >
          {automation.enabled ? 'Disable' : 'Enable'}
        </button>
      )}
      {owner && (
        <Link className="btn btn-primary" to={`/automations/${automation.id}/edit`}>
          Edit
        </Link>
      )}
      <ActionMenu label="Automation actions" actions={menu} />
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {confirmation.dialog}
    </div>
  );
}
