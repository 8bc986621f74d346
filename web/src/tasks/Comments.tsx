import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { taskKeys } from '../api/keys';
import { commentsQuery, taskWrites, useTaskWrite, type TaskRef } from './api';

/** A task's comments, oldest first, and a box to add one (docs "API", "Comments"). Text only: never HTML. */
export function Comments({ task, readOnly }: { task: TaskRef; readOnly: boolean }) {
  const comments = useQuery(commentsQuery(task));
  const [text, setText] = useState('');
  const add = useTaskWrite(task, taskKeys.comments(task.taskId), (text: string) => taskWrites.comment(task, text));
  return (
    <section className="detail-section" aria-labelledby="comments-title">
      <h3 id="comments-title">Comments</h3>
      {comments.isError && <p className="error">{errorMessage(comments.error)}</p>}
      {comments.data?.length === 0 && <p className="muted small">No comments yet.</p>}
      <ol className="comments">
        {comments.data?.map((c) => (
          <li key={c.id}>
            <p className="small muted">
              {c.author ? `@${c.author.handle}` : 'a former member'} ·{' '}
              <time dateTime={c.createdAt}>{new Date(c.createdAt).toLocaleString()}</time>
            </p>
            <p className="comment-text">{c.text}</p>
          </li>
        ))}
      </ol>
      {!readOnly && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim() === '') return;
            add.mutate(text, { onSuccess: () => setText('') });
          }}
        >
          <label>
            New comment
            <textarea value={text} rows={3} maxLength={10_000} onChange={(e) => setText(e.currentTarget.value)} />
          </label>
          <button type="submit" disabled={add.isPending || text.trim() === ''}>
            Add comment
          </button>
          {add.isError && (
            <p role="alert" className="error">
              {errorMessage(add.error)}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
