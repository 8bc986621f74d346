import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { FieldEditor } from '../tasks/Fields';
import { taskFieldsQuery, type TaskRef } from '../tasks/api';

/**
 * The "Add field" chip's popover (docs "Web app", "Outline"): the project's custom fields this task
 * has no value for, as buttons; choosing one shows that field's own editor (tasks/Fields
 * `FieldEditor`, the same as a field chip's), with the focus on its control. `onDone` is the
 * editor's: called once a value is saved with a choice or Enter (the popover closes then).
 */
export function AddField({ task, onDone }: { task: TaskRef; onDone: () => void }) {
  const fields = useQuery(taskFieldsQuery(task));
  const [picked, setPicked] = useState<string | null>(null);
  const editor = useRef<HTMLDivElement>(null);
  // The chosen field's button is gone: the focus moves on to the editor's control.
  useEffect(() => {
    if (picked !== null) editor.current?.querySelector<HTMLElement>('input, select')?.focus();
  }, [picked]);
  if (picked !== null) {
    return (
      <div ref={editor}>
        <FieldEditor task={task} fieldId={picked} onDone={onDone} />
      </div>
    );
  }
  if (fields.isError) return <p className="error">{errorMessage(fields.error)}</p>;
  if (!fields.data) return <p className="muted small">Loading…</p>;
  const unset = fields.data.filter((f) => f.value === null);
  if (unset.length === 0) return <p className="muted small">Every field of this project has a value for this task.</p>;
  return (
    <div className="detail-section">
      <p className="muted small" id={`add-field-${task.taskId}`}>
        Fields without a value
      </p>
      <ul className="field-choices" aria-labelledby={`add-field-${task.taskId}`}>
        {unset.map((f) => (
          <li key={f.id}>
            <button type="button" className="btn-ghost btn-sm" onClick={() => setPicked(f.id)}>
              {f.name}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
