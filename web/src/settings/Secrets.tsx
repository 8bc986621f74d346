import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { secretsQuery, useSecretChanges } from './api';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { ItemTable } from '../components/ItemTable';
import { OwnedWorkspace } from '../components/OwnedWorkspace';

/**
 * Settings → Secrets (docs/automations.md "Secrets"): Owners set and rotate the values automations
 * read as `{{ secrets.NAME }}` (write-only: a value is never shown again), see which automations
 * read each, and delete those no enabled automation uses.
 */
export function Secrets() {
  return (
    <section aria-labelledby="secrets-title">
      <h1 id="secrets-title">Secrets</h1>
      <p className="muted">
        Automations read a secret as <code>{'{{ secrets.NAME }}'}</code>; run journals show <code>[secret NAME]</code> instead of the value.
      </p>
      <OwnedWorkspace action="manageSecrets">
        {(workspaceId) => <WorkspaceSecrets key={workspaceId} workspaceId={workspaceId} />}
      </OwnedWorkspace>
    </section>
  );
}

function WorkspaceSecrets({ workspaceId }: { workspaceId: string }) {
  const secrets = useQuery(secretsQuery(workspaceId));
  const { save, remove } = useSecretChanges(workspaceId);
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(null);
    save.mutate(
      { name, value },
      {
        onSuccess: (item) => {
          setSaved(
            item.created ? `Secret ${item.name} saved.` : `Secret ${item.name} rotated; runs use the new value from their next step.`,
          );
          setName('');
          setValue('');
        },
      },
    );
  };
  return (
    <>
      <form onSubmit={submit} className="card wide" aria-labelledby="secret-form-title">
        <h2 id="secret-form-title">Set a secret</h2>
        <label>
          Name (an existing name rotates its value)
          <input
            required
            pattern="[A-Z][A-Z0-9_]{0,63}"
            title="Upper-case letters, digits and _, starting with a letter"
            value={name}
            onChange={(e) => setName(e.target.value.toUpperCase())}
            placeholder="PAYMENTS_KEY"
          />
        </label>
        <label>
          Value (never shown again)
          <input
            type="password"
            autoComplete="off"
            required
            minLength={4}
            maxLength={8192}
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        </label>
        {save.error && (
          <p role="alert" className="error">
            {errorMessage(save.error)}
          </p>
        )}
        {saved && <p role="status">{saved}</p>}
        <button type="submit" disabled={save.isPending}>
          Save secret
        </button>
      </form>
      {remove.error && (
        <p role="alert" className="error">
          {errorMessage(remove.error)}
        </p>
      )}
      <ItemTable
        items={secrets.data}
        empty="No secrets yet."
        columns={['Name', 'Updated', 'Read by', 'Actions']}
        row={(s) => (
          <tr key={s.name}>
            <td>
              <code>{s.name}</code>
            </td>
            <td>
              {s.updatedAt ? new Date(s.updatedAt).toLocaleString() : '—'}
              {s.updatedBy ? ` by @${s.updatedBy}` : ''}
            </td>
            <td>
              {s.usedBy && s.usedBy.length > 0 ? (
                s.usedBy.map((a) => `${a.name}${a.enabled ? '' : ' (disabled)'}`).join(', ')
              ) : (
                <span className="muted">no automation</span>
              )}
            </td>
            <td>
              <ConfirmDelete name={s.name!} label={`Delete the secret ${s.name}`} onConfirm={() => remove.mutate(s.name!)} />
            </td>
          </tr>
        )}
      />
    </>
  );
}
