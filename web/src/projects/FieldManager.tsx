import { useState } from 'react';
import '../outline/outline.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, Plus } from 'lucide-react';
import { errorMessage } from '../api/client';
import { projectKeys, taskKeys } from '../api/keys';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { changeFields, fieldsQuery, type Field, type FieldChange } from './api';

const TYPES = [
  ['text', 'Text'],
  ['number', 'Number'],
  ['select', 'Select'],
  ['date', 'Date'],
  ['boolean', 'Yes / no'],
] as const;

/** One field's row: its name (renamed when the box is left or Enter pressed), move up and down, delete. */
function FieldRow({
  field,
  first,
  last,
  onRename,
  onMove,
  onDelete,
}: {
  field: Field;
  first: boolean;
  last: boolean;
  onRename: (name: string) => void;
  onMove: (by: -1 | 1) => void;
  onDelete: () => void;
}) {
  const [name, setName] = useState(field.name);
  const commit = () => {
    if (name.trim() !== '' && name !== field.name) onRename(name.trim());
    else setName(field.name);
  };
  return (
    <li className="field-row">
      <input
        aria-label={`Name of field ${field.name}`}
        value={name}
        maxLength={100}
        onChange={(e) => setName(e.currentTarget.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
      />
      <span className="muted small">
        {TYPES.find(([t]) => t === field.type)?.[1] ?? field.type}
        {field.options ? `: ${field.options.join(', ')}` : ''}
      </span>
      <button type="button" className="icon" aria-label={`Move ${field.name} up`} disabled={first} onClick={() => onMove(-1)}>
        <ArrowUp size={14} aria-hidden="true" />
      </button>
      <button type="button" className="icon" aria-label={`Move ${field.name} down`} disabled={last} onClick={() => onMove(1)}>
        <ArrowDown size={14} aria-hidden="true" />
      </button>
      <ConfirmDelete name={field.name} label={`Delete field ${field.name}`} onConfirm={onDelete} />
    </li>
  );
}

/**
 * A project's custom fields for Collaborators (docs "Web app", "Custom fields"): define one (name,
 * type, options of a select), rename, reorder and delete (with its values, after a confirmation).
 */
export function FieldManager({ projectId }: { projectId: string }) {
  const queries = useQueryClient();
  const fields = useQuery(fieldsQuery(projectId));
  const [draft, setDraft] = useState({ name: '', type: 'text', options: '' });
  const change = useMutation({
    mutationFn: (op: FieldChange) => changeFields(projectId, op),
    onSuccess: (_r, op) => {
      if (op.kind === 'define') setDraft({ name: '', type: 'text', options: '' });
    },
    onSettled: () =>
      Promise.all([
        queries.invalidateQueries({ queryKey: projectKeys.fields(projectId) }),
        queries.invalidateQueries({ queryKey: taskKeys.allFields() }),
        queries.invalidateQueries({ queryKey: taskKeys.summaries(projectId) }),
      ]),
  });
  const list = fields.data ?? [];
  const move = (index: number, by: -1 | 1) => {
    const ids = list.map((f) => f.id);
    [ids[index], ids[index + by]] = [ids[index + by]!, ids[index]!];
    change.mutate({ kind: 'order', ids });
  };
  return (
    <section className="field-manager" aria-labelledby="fields-title">
      <h2 id="fields-title">Custom fields</h2>
      {fields.isError && <p className="error">{errorMessage(fields.error)}</p>}
      {list.length === 0 && fields.isSuccess && (
        <p className="muted small">No custom fields yet. Define one to give every task a value such as a stage, points or a due week.</p>
      )}
      <ol className="field-list">
        {list.map((f, i) => (
          <FieldRow
            key={`${f.id}:${f.name}`}
            field={f}
            first={i === 0}
            last={i === list.length - 1}
            onRename={(name) => change.mutate({ kind: 'rename', id: f.id, name })}
            onMove={(by) => move(i, by)}
            onDelete={() => change.mutate({ kind: 'delete', id: f.id })}
          />
        ))}
      </ol>
      <form
        className="field-define"
        onSubmit={(e) => {
          e.preventDefault();
          if (draft.name.trim() !== '') {
            const options = draft.options
              .split(',')
              .map((o) => o.trim())
              .filter(Boolean);
            change.mutate({ kind: 'define', name: draft.name.trim(), type: draft.type, options });
          }
        }}
      >
        <label>
          Field name
          <input value={draft.name} maxLength={100} onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })} />
        </label>
        <label>
          Type
          <select value={draft.type} onChange={(e) => setDraft({ ...draft, type: e.currentTarget.value })}>
            {TYPES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {draft.type === 'select' && (
          <label>
            Options (comma-separated)
            <input
              value={draft.options}
              onChange={(e) => setDraft({ ...draft, options: e.currentTarget.value })}
              placeholder="todo, doing, done"
            />
          </label>
        )}
        <button type="submit" disabled={change.isPending || draft.name.trim() === ''}>
          <Plus size={14} aria-hidden="true" /> Define field
        </button>
      </form>
      {change.isError && (
        <p role="alert" className="error">
          {errorMessage(change.error)}
        </p>
      )}
    </section>
  );
}
