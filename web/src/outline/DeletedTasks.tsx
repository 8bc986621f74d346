import { useQuery } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { errorMessage } from '../api/client';
import { EmptyState } from '../components/EmptyState';
import { useToast } from '../components/Toasts';
import { quote } from './edits';
import { UNDO_TOAST } from './history';
import { deletedTasksQuery, useRestoreDeleted } from './api';

/** "3 May 2027, 14:05" in the reader's language. */
function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
}

/**
 * The project's deleted tasks beside the outline (docs "Web app", "Deleted tasks"): each with when
 * and by whom it was deleted, how many subtasks went with it, until when it can be restored, and a
 * Restore button (disabled with the reason on a completed project).
 */
export function DeletedTasks({ projectId, readOnly, onClose }: { projectId: string; readOnly: boolean; onClose: () => void }) {
  const deleted = useQuery(deletedTasksQuery(projectId));
  const restore = useRestoreDeleted(projectId);
  const toast = useToast();
  return (
    <aside className="task-details deleted-tasks" id="deleted-tasks" aria-labelledby="deleted-tasks-title">
      <header className="task-details-head">
        <h2 id="deleted-tasks-title">Deleted tasks</h2>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </header>
      {deleted.isPending && (
        <p className="muted" role="status">
          Loading…
        </p>
      )}
      {deleted.isError && <p className="error">{errorMessage(deleted.error)}</p>}
      {deleted.data?.length === 0 && (
        <EmptyState icon={Trash2} title="No deleted tasks">
          A task you delete stays here, with its subtasks, note, dates and assignees, so you can restore it.
        </EmptyState>
      )}
      {readOnly && deleted.data && deleted.data.length > 0 && (
        <p className="muted small">This project is completed: restore the project to restore tasks.</p>
      )}
      <ul className="deleted-list">
        {deleted.data?.map((d) => (
          <li key={d.id}>
            <p className="deleted-text">{d.text}</p>
            <p className="muted small">
              Deleted <time dateTime={d.deletedAt}>{when(d.deletedAt)}</time> by {d.deletedBy ? `@${d.deletedBy}` : 'a former member'}
              {d.taskCount > 1 && ` · with ${d.taskCount - 1} subtask${d.taskCount === 2 ? '' : 's'}`}
              {d.expiresAt && (
                <>
                  {' '}
                  · kept until <time dateTime={d.expiresAt}>{when(d.expiresAt)}</time>
                </>
              )}
            </p>
            <button
              type="button"
              className="secondary"
              aria-label={`Restore ${quote(d.text)}`}
              disabled={readOnly || restore.isPending}
              onClick={() =>
                restore.mutate(d.id, {
                  onSuccess: () => toast({ message: `Restored ${quote(d.text)}`, key: UNDO_TOAST }),
                  onError: (e) => toast({ message: errorMessage(e), tone: 'error' }),
                })
              }
            >
              Restore
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
