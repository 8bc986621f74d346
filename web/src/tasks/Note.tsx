import { lazy, Suspense, useEffect, useState } from 'react';
import { api, errorMessage, unwrap } from '../api/client';
import { taskPath, useTaskNote, useTaskWrite, type TaskRef } from './queries';

type NoteType = 'text' | 'markdown';

// The markdown renderer loads only when a markdown note is shown.
const Markdown = lazy(() => import('../components/Markdown'));

/** Longest note, in characters (docs "API", "Note"): one line. */
const MAX_NOTE_CHARS = 10_000;

/** A task's note: one line of text or markdown (docs "API", "Note"). */
export function Note({ task, readOnly }: { task: TaskRef; readOnly: boolean }) {
  const stored = useTaskNote(task);
  const [value, setValue] = useState('');
  const [type, setType] = useState<NoteType>('text');
  useEffect(() => {
    if (stored.data === undefined) return;
    setValue(stored.data?.value ?? '');
    setType(stored.data?.type === 'markdown' ? 'markdown' : 'text');
  }, [stored.data]);
  const save = useTaskWrite(task, 'task-note', async () =>
    unwrap(await api.PUT('/api/v1/projects/{projectId}/tasks/{taskId}/note', { ...taskPath(task), body: { type, value } })),
  );
  const remove = useTaskWrite(task, 'task-note', async () =>
    unwrap(await api.DELETE('/api/v1/projects/{projectId}/tasks/{taskId}/note', taskPath(task))),
  );
  const failed = save.isError ? save.error : remove.isError ? remove.error : null;
  return (
    <fieldset className="detail-section" disabled={readOnly || save.isPending || remove.isPending}>
      <legend>Note</legend>
      <label>
        Note (one line of up to {MAX_NOTE_CHARS.toLocaleString('en')} characters)
        <input value={value} maxLength={MAX_NOTE_CHARS} onChange={(e) => setValue(e.currentTarget.value)} />
      </label>
      <label>
        Format
        <select value={type} onChange={(e) => setType(e.currentTarget.value === 'markdown' ? 'markdown' : 'text')}>
          <option value="text">Plain text</option>
          <option value="markdown">Markdown</option>
        </select>
      </label>
      {!readOnly && (
        <div className="actions">
          <button type="button" disabled={value.trim() === ''} onClick={() => save.mutate(undefined)}>
            Save note
          </button>
          {stored.data && (
            <button type="button" className="secondary" onClick={() => remove.mutate(undefined)}>
              Remove note
            </button>
          )}
        </div>
      )}
      {stored.data?.type === 'markdown' && (
        <Suspense fallback={null}>
          <div aria-label="Note preview">
            <Markdown text={stored.data.value} />
          </div>
        </Suspense>
      )}
      {failed && (
        <p role="alert" className="error">
          {errorMessage(failed)}
        </p>
      )}
    </fieldset>
  );
}
