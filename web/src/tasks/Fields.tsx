import { useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { taskKeys } from '../api/keys';
import { taskFieldsQuery, taskWrites, useTaskWrite, type FieldValue, type TaskField, type TaskRef } from './api';

/** A custom field with this task's value ({@link taskFieldsQuery}: the project's fields joined with the task's values). */
type Field = TaskField;

/** One custom field's control; a change is saved at once (text and numbers when the field is left). */
function FieldControl({ field, onSave, disabled }: { field: Field; onSave: (value: FieldValue) => void; disabled: boolean }) {
  const [draft, setDraft] = useState(field.value === null ? '' : String(field.value));
  const commit = (text: string) => {
    // While a save is under way the control is disabled, and the browser's blur then commits nothing more.
    if (disabled || text === (field.value === null ? '' : String(field.value))) return;
    onSave(text === '' ? null : field.type === 'number' ? Number(text) : text);
  };
  switch (field.type) {
    case 'boolean':
      return (
        <label className="check">
          <input type="checkbox" checked={field.value === true} disabled={disabled} onChange={(e) => onSave(e.currentTarget.checked)} />
          {field.name}
        </label>
      );
    case 'select':
      return (
        <label>
          {field.name}
          <select
            value={field.value === null ? '' : String(field.value)}
            disabled={disabled}
            onChange={(e) => onSave(e.currentTarget.value === '' ? null : e.currentTarget.value)}
          >
            <option value="">—</option>
            {field.options.map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
        </label>
      );
    default:
      return (
        <label>
          {field.name}
          <input
            type={field.type === 'number' ? 'number' : field.type === 'date' ? 'date' : 'text'}
            step={field.type === 'number' ? 'any' : undefined}
            value={draft}
            disabled={disabled}
            onChange={(e) => {
              setDraft(e.currentTarget.value);
              if (field.type === 'date') commit(e.currentTarget.value);
            }}
            onBlur={(e) => commit(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Enter' && commit(e.currentTarget.value)}
          />
        </label>
      );
  }
}

/** Writes one field value of a task: PUT, or DELETE for null (an empty value clears it). */
function useFieldWrite(task: TaskRef) {
  return useTaskWrite(task, taskKeys.fields(task.taskId), ({ fieldId, value }: { fieldId: string; value: FieldValue }) =>
    taskWrites.field(task, fieldId, value),
  );
}

/** The project's custom fields with this task's values (docs "API", "Custom fields"). Empty clears a value. */
export function Fields({ task, readOnly }: { task: TaskRef; readOnly: boolean }) {
  const fields = useQuery(taskFieldsQuery(task));
  const write = useFieldWrite(task);
  return (
    <fieldset className="detail-section">
      <legend>Fields</legend>
      {fields.data?.length === 0 && (
        <p className="muted small">
          This project has no custom fields yet; a Collaborator defines them with “Custom fields” above the outline.
        </p>
      )}
      {fields.isError && <p className="error">{errorMessage(fields.error)}</p>}
      {fields.data?.map((f) => (
        <FieldControl
          key={`${f.id}:${String(f.value)}`}
          field={f}
          disabled={readOnly || write.isPending}
          onSave={(value) => write.mutate({ fieldId: f.id, value })}
        />
      ))}
      {write.isError && (
        <p role="alert" className="error">
          {errorMessage(write.error)}
        </p>
      )}
    </fieldset>
  );
}

/**
 * One custom field of a task with its own control (the outline's field chip opens it). A choice
 * (select, yes/no) is saved at once; text, numbers and dates when Enter is pressed or the control
 * is left. `onDone` is called once a choice, or a value confirmed with Enter, is saved (and on Enter
 * when nothing changed): the chip's popover closes then.
 */
export function FieldEditor({ task, fieldId, onDone }: { task: TaskRef; fieldId: string; onDone?: () => void }) {
  const fields = useQuery(taskFieldsQuery(task));
  const write = useFieldWrite(task);
  const field = fields.data?.find((f) => f.id === fieldId);
  // Set while one key press is handled: whether it was Enter and whether it started a save.
  const enter = useRef(false);
  const started = useRef(false);
  const save = (value: FieldValue) => {
    started.current = true;
    const close = enter.current || field?.type === 'boolean' || field?.type === 'select';
    write.mutate({ fieldId, value }, { onSuccess: () => close && onDone?.() });
  };
  return (
    <div
      className="detail-section"
      onKeyDownCapture={(e) => {
        enter.current = e.key === 'Enter';
        started.current = false;
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && !started.current) onDone?.();
        enter.current = false;
      }}
    >
      {fields.isError && <p className="error">{errorMessage(fields.error)}</p>}
      {fields.data && !field && <p className="muted small">This field no longer exists.</p>}
      {field && <FieldControl key={`${field.id}:${String(field.value)}`} field={field} disabled={write.isPending} onSave={save} />}
      {write.isError && (
        <p role="alert" className="error">
          {errorMessage(write.error)}
        </p>
      )}
    </div>
  );
}
