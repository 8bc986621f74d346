import { lazy, Suspense, useEffect, useState } from 'react';
import '../outline/outline.css';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { taskKeys } from '../api/keys';
import { taskNoteQuery, taskWrites, useTaskWrite, type TaskRef } from './api';

type NoteType = 'text' | 'markdown';

// The markdown renderer loads only when a markdown note is shown.
const Markdown = lazy(() => import('../components/Markdown'));

/** Longest note, in characters (docs "API", "Note"). */
const MAX_NOTE_CHARS = 10_000;

/**
 * A task's note: plain text or markdown on one line (spec 4.1: no CR or LF; docs "API", "Note"),
 * in a wrapping text area with a preview of the markdown. Enter (or Ctrl/Cmd+Enter) saves; pasted
 * line breaks become spaces, so what is shown is what is saved. `present`: whether the task has a
 * note, from the task summaries (read only then; undefined while unknown).
 */
export function Note({ task, readOnly, present }: { task: TaskRef; readOnly: boolean; present?: boolean }) {
  const query = useQuery(taskNoteQuery(task, present));
  const stored = { data: present === false ? null : query.data };
  const [value, setValue] = useState('');
  const [type, setType] = useState<NoteType>('text');
  const [preview, setPreview] = useState(false);
  useEffect(() => {
    if (stored.data === undefined) return;
    setValue(stored.data?.value ?? '');
    setType(stored.data?.type === 'markdown' ? 'markdown' : 'text');
  }, [stored.data]);
  const save = useTaskWrite(task, taskKeys.note(task.taskId), () => taskWrites.note(task, { type, value }));
  const remove = useTaskWrite(task, taskKeys.note(task.taskId), () => taskWrites.clearNote(task), { removes: true });
  const failed = save.isError ? save.error : remove.isError ? remove.error : null;
  return (
    <fieldset className="detail-section" disabled={readOnly || save.isPending || remove.isPending}>
      <legend>Note</legend>
      {preview && type === 'markdown' ? (
        <Suspense fallback={null}>
          <div className="note-preview" aria-label="Note preview">
            <Markdown text={value} />
          </div>
        </Suspense>
      ) : (
        <label>
          Note (one line, up to {MAX_NOTE_CHARS.toLocaleString('en')} characters)
          <textarea
            className="note-editor"
            value={value}
            rows={6}
            maxLength={MAX_NOTE_CHARS}
            onChange={(e) => setValue(e.currentTarget.value.replace(/\r\n?|\n/g, ' '))}
            onKeyDown={(e) => {
              if (e.key !== 'Enter') return;
              e.preventDefault();
              if (value.trim() !== '') save.mutate(undefined);
            }}
          />
        </label>
      )}
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
          {type === 'markdown' && (
            <button type="button" className="secondary" aria-pressed={preview} onClick={() => setPreview(!preview)}>
              {preview ? 'Edit' : 'Preview'}
            </button>
          )}
          {stored.data && (
            <button type="button" className="secondary" onClick={() => remove.mutate(undefined)}>
              Remove note
            </button>
          )}
        </div>
      )}
      {save.isSuccess && !save.isPending && (
        <p role="status" className="muted small">
          Note saved.
        </p>
      )}
      {failed && (
        <p role="alert" className="error">
          {errorMessage(failed)}
        </p>
      )}
    </fieldset>
  );
}
