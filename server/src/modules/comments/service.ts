import type { Dialect, Query, Sql } from '../../platform/db/query';
import type { Actor } from '../../auth/tokens';
import { isoTime } from '../../platform/clock';
import { newId } from '../../platform/ids';
import type { Services } from '../../services';
import { pageWindow } from '../../platform/paging';
import { checkText, raiseEvent, requireTask, taskEventBase } from '../tasks/records';

/**
 * Comments on tasks (`POST`/`GET /api/v1/projects/{projectId}/tasks/{taskId}/comments`; the spec
 * names comments only as an add-on and as the `comment.created` event; README "Tasks").
 */

/** Longest comment, in characters. Comments may span several lines. */
export const MAX_COMMENT_LENGTH = 10000;

/** Default and largest page size of the comments list. */
export const COMMENTS_DEFAULT_LIMIT = 20;

/** A comment as the API returns it. */
export interface Comment {
  id: string;
  /** uuid of the task. */
  taskId: string;
  text: string;
  /** The author; null when their account no longer exists. */
  author: { handle: string; displayName: string } | null;
  /** ISO 8601 timestamp. */
  createdAt: string;
}

/**
 * Adds a comment to a task (Participant) and raises `comment.created`.
 * @throws ServiceError 400 for an empty text or one over {@link MAX_COMMENT_LENGTH} characters;
 *   404, 403, 409 as for every task write.
 */
export function* addComment(
  svc: Services,
  actor: Actor,
  projectId: string,
  taskId: string,
  text: string,
  q: Sql = svc.store.sql,
): Query<Comment> {
  const { clock } = svc;
  checkText('text', text, MAX_COMMENT_LENGTH, { multiline: true });
  return yield* q.transaction(function* (tx) {
    const { project, task } = yield* requireTask(tx, actor, projectId, taskId, 'Participant', { mutation: true, action: 'commenting' });
    const id = newId();
    const now = clock.now();
    yield* tx.run('INSERT INTO comments (id, task_id, project_id, author_id, text, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
      id,
      task.id,
      project.id,
      actor.userId,
      text,
      now,
    ]);
    const comment: Comment = {
      id,
      taskId: task.id,
      text,
      author: { handle: actor.handle, displayName: actor.displayName },
      createdAt: isoTime(now),
    };
    yield* raiseEvent(
      tx,
      actor,
      project,
      'comment.created',
      {
        ...taskEventBase(svc, project, task),
        commentId: id,
        commentText: text,
        author: actor.handle,
        createdAt: comment.createdAt,
      },
      now,
    );
    return comment;
  });
}

interface CommentRow {
  id: string;
  taskId: string;
  text: string;
  handle: string | null;
  displayName: string | null;
  createdAt: number;
}

const PAGE_COLUMNS = `SELECT c.id, c.task_id AS "taskId", c.text, u.handle, u.display_name AS "displayName", c.created_at AS "createdAt"
       FROM comments c LEFT JOIN users u ON u.id = c.author_id
      WHERE c.task_id = ?`;

/**
 * The page query of {@link listComments}. Comments made in the same millisecond stay in the
 * order they were added on SQLite (`rowid`); PostgreSQL rows have no insertion order, so the id
 * breaks such ties there.
 */
const PAGE_SQL: Readonly<Record<Dialect, string>> = {
  sqlite: `${PAGE_COLUMNS} ORDER BY c.created_at, c.rowid LIMIT ? OFFSET ?`,
  postgres: `${PAGE_COLUMNS} ORDER BY c.created_at, c.id LIMIT ? OFFSET ?`,
};

/**
 * One page of a task's comments, oldest first (Viewer). `page` is 1-based; a page past the end
 * is empty.
 * @throws ServiceError 400 for a limit outside 1..{@link MAX_PAGE_SIZE} or a page below 1;
 *   404 for an unknown project or task.
 */
export function* listComments(
  svc: Services,
  actor: Actor,
  projectId: string,
  taskId: string,
  paging: { limit?: number; page?: number } = {},
  q: Sql = svc.store.sql,
): Query<Comment[]> {
  const limit = paging.limit ?? COMMENTS_DEFAULT_LIMIT;
  const page = paging.page ?? 1;
  const [, offset] = pageWindow({ limit, page });
  const { task } = yield* requireTask(q, actor, projectId, taskId, 'Viewer');
  const rows = yield* q.all<CommentRow>(PAGE_SQL[q.dialect], [task.id, limit, offset]);
  return rows.map((r) => ({
    id: r.id,
    taskId: r.taskId,
    text: r.text,
    author: r.handle === null ? null : { handle: r.handle, displayName: r.displayName! },
    createdAt: isoTime(r.createdAt),
  }));
}
