import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { errorMessage } from '../api/client';
import { MAX_TASK_CHARS, characters, nextSibling, previousSibling, toRows, type Row, type TaskItem } from './tree';
import { useOutlineActions } from './useOutlineActions';

const ROW_PX = 38;

/** Where a new task being typed will go: after `after` (as its first child when it has children), or at the end. */
interface Draft {
  after?: Row;
  asChild: boolean;
  depth: number;
}

type Item = { kind: 'task'; row: Row; index: number } | { kind: 'draft'; depth: number };

/** A task's completion checkbox: flips in the same event (the list catches up after the call). */
function TaskCheckbox({ row, disabled, onToggle }: { row: Row; disabled: boolean; onToggle: () => void }) {
  const [checked, setChecked] = useState(row.completed);
  useEffect(() => setChecked(row.completed), [row.completed]);
  return (
    <input
      type="checkbox"
      checked={checked}
      disabled={disabled}
      aria-label={`Completed: ${row.text}`}
      onChange={() => {
        setChecked(!checked);
        onToggle();
      }}
    />
  );
}

/**
 * The project outline, keyboard first (docs "Web app"): Enter adds a task below, Tab and
 * Shift+Tab indent and outdent (moves), Alt+↑/Alt+↓ move among siblings, ↑/↓ go between tasks, Escape undoes an edit, Backspace on
 * an empty task deletes it, the checkbox completes, the ⋯ button opens the task's details, the ⠿
 * handle drags a task (with its subtree) before or after another. Only visible rows are rendered, so a
 * 10,000-task project opens and scrolls at once.
 */
export function Outline({
  projectId,
  tasks,
  readOnly,
  selectedId,
  onOpenDetails,
}: {
  projectId: string;
  tasks: readonly TaskItem[];
  readOnly: boolean;
  /** The task whose details are open. */
  selectedId?: string;
  /** Opens a task's details (assignees, dates, note, fields, comments). */
  onOpenDetails?: (taskId: string) => void;
}) {
  const rows = useMemo(() => toRows(tasks), [tasks]);
  const actions = useOutlineActions(projectId);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  // One new-task line session: opened by Enter or "Add task", ended by Escape. Tasks typed in one
  // session are created one after another, each after the one before, so fast typing keeps order.
  const session = useRef(0);
  // Drag to move: the task being dragged, and where it would land (before or after a row, with its subtree).
  const dragged = useRef<Row | null>(null);
  const [dropAt, setDropAt] = useState<{ id: string; position: 'beforebegin' | 'afterend' } | null>(null);
  const lastCreated = useRef<Promise<Row | undefined>>(Promise.resolve(undefined));

  const items = useMemo<Item[]>(() => {
    const list: Item[] = rows.map((row, index) => ({ kind: 'task', row, index }));
    if (draft) {
      const at = draft.after ? list.findIndex((i) => i.kind === 'task' && i.row.id === draft.after!.id) + 1 : list.length;
      list.splice(at, 0, { kind: 'draft', depth: draft.depth });
    }
    return list;
  }, [rows, draft]);

  const virtual = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    overscan: 12,
  });

  // Bring the row to focus into view; the row focuses itself when it renders (focusRef).
  useEffect(() => {
    if (!focusId) return;
    const index = items.findIndex((i) => (focusId === 'draft' ? i.kind === 'draft' : i.kind === 'task' && i.row.id === focusId));
    if (index >= 0) virtual.scrollToIndex(index, { align: 'auto' });
  }, [focusId, items, virtual]);
  const focusRef = useCallback((input: HTMLInputElement | null) => {
    if (!input) return;
    input.focus();
    setFocusId(null);
  }, []);

  const openDraft = (next: Draft) => {
    session.current++;
    lastCreated.current = Promise.resolve(undefined);
    setDraft(next);
    setFocusId('draft');
  };

  const run = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  const save = (row: Row, text: string) => {
    if (text === row.text || text.trim() === '') return Promise.resolve();
    return run(() => actions.rename.mutateAsync({ row, text }));
  };

  function onTaskKey(event: KeyboardEvent<HTMLInputElement>, row: Row, index: number) {
    const input = event.currentTarget;
    if (event.key === 'Enter') {
      event.preventDefault();
      void save(row, input.value);
      const hasChildren = rows[index + 1] !== undefined && rows[index + 1]!.depth > row.depth;
      openDraft({ after: row, asChild: hasChildren, depth: hasChildren ? row.depth + 1 : row.depth });
    } else if (event.key === 'Tab' && !event.shiftKey) {
      const sibling = previousSibling(rows, index);
      if (!sibling) return;
      event.preventDefault();
      void save(row, input.value).then(() => run(() => actions.move.mutateAsync({ row, taskId: sibling.id, position: 'beforeend' })));
      setFocusId(row.id);
    } else if (event.key === 'Tab' && event.shiftKey) {
      if (!row.parentId) return;
      event.preventDefault();
      const parentId = row.parentId;
      void save(row, input.value).then(() => run(() => actions.move.mutateAsync({ row, taskId: parentId, position: 'afterend' })));
      setFocusId(row.id);
    } else if (event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      // Alt+↑ / Alt+↓ move the task (with its subtree) above its previous or below its next sibling.
      const up = event.key === 'ArrowUp';
      const sibling = up ? previousSibling(rows, index) : nextSibling(rows, index);
      if (!sibling) return;
      event.preventDefault();
      void save(row, input.value).then(() =>
        run(() => actions.move.mutateAsync({ row, taskId: sibling.id, position: up ? 'beforebegin' : 'afterend' })),
      );
      setFocusId(row.id);
    } else if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      const next = rows[index + (event.key === 'ArrowUp' ? -1 : 1)];
      if (!next) return;
      event.preventDefault();
      setFocusId(next.id);
    } else if (event.key === 'Escape') {
      input.value = row.text;
    } else if (event.key === 'Backspace' && input.value === '') {
      event.preventDefault();
      const previous = rows[index - 1];
      void run(() => actions.remove.mutateAsync(row));
      if (previous) setFocusId(previous.id);
    }
  }

  const dropPosition = (event: DragEvent<HTMLDivElement>): 'beforebegin' | 'afterend' => {
    const box = event.currentTarget.getBoundingClientRect();
    return event.clientY < box.top + box.height / 2 ? 'beforebegin' : 'afterend';
  };
  const onDragOver = (event: DragEvent<HTMLDivElement>, row: Row) => {
    if (!dragged.current || dragged.current.id === row.id) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    const position = dropPosition(event);
    if (dropAt?.id !== row.id || dropAt.position !== position) setDropAt({ id: row.id, position });
  };
  const onDrop = (event: DragEvent<HTMLDivElement>, row: Row) => {
    event.preventDefault();
    const moving = dragged.current;
    dragged.current = null;
    setDropAt(null);
    if (!moving || moving.id === row.id) return;
    void run(() => actions.move.mutateAsync({ row: moving, taskId: row.id, position: dropPosition(event) }));
  };

  function onDraftKey(event: KeyboardEvent<HTMLInputElement>) {
    const text = event.currentTarget.value;
    const opened = draft;
    if (!opened) return;
    if (event.key === 'Escape' || (event.key === 'Backspace' && text === '')) {
      event.preventDefault();
      const ended = ++session.current;
      setDraft(null);
      // Land on the last task this line made (once made), or back where the line was opened.
      void lastCreated.current.then((made) => {
        const back = made?.id ?? opened.after?.id;
        if (back && session.current === ended) setFocusId(back);
      });
    } else if (event.key === 'Enter' && text.trim() !== '') {
      event.preventDefault();
      event.currentTarget.value = '';
      const current = session.current;
      lastCreated.current = lastCreated.current.then(async (previous) => {
        const after = previous ?? opened.after;
        const placement = previous || !opened.asChild ? 'afterend' : 'afterbegin';
        try {
          const created = await actions.create.mutateAsync(after ? { text, taskId: after.id, placement } : { text });
          const made = { ...created, depth: opened.depth } as Row;
          if (session.current === current) setDraft({ after: made, asChild: false, depth: opened.depth });
          return made;
        } catch (e) {
          setError(errorMessage(e));
          return previous;
        }
      });
    }
  }

  return (
    <div className="outline-wrap">
      <p id="outline-help" className="muted small">
        Enter adds a task below · Tab / Shift+Tab indent and outdent · Alt+↑ / Alt+↓ or the ⠿ handle move a task · ↑ ↓ go between tasks · a
        task is one line of up to {MAX_TASK_CHARS.toLocaleString('en')} characters
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div ref={scroller} className="outline-scroll" role="tree" aria-label="Tasks" aria-describedby="outline-help">
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((v) => {
            const item = items[v.index]!;
            const style = { transform: `translateY(${v.start}px)`, height: ROW_PX };
            if (item.kind === 'draft') {
              return (
                <div
                  key="draft"
                  className="task"
                  style={{ ...style, paddingInlineStart: `${item.depth * 1.5}rem` }}
                  role="treeitem"
                  aria-level={item.depth + 1}
                  aria-selected={false}
                >
                  <span className="bullet" aria-hidden="true" />
                  <input
                    ref={focusId === 'draft' ? focusRef : undefined}
                    data-row="draft"
                    aria-label="New task"
                    onFocus={() => setFocusId((pending) => (pending === 'draft' ? pending : null))}
                    maxLength={MAX_TASK_CHARS * 2}
                    placeholder="New task"
                    onKeyDown={onDraftKey}
                  />
                </div>
              );
            }
            const { row, index } = item;
            return (
              <div
                key={row.id}
                className={dropAt?.id === row.id ? `task drop-${dropAt.position}` : 'task'}
                style={{ ...style, paddingInlineStart: `${row.depth * 1.5}rem` }}
                role="treeitem"
                aria-level={row.depth + 1}
                aria-selected={row.id === selectedId}
                onDragOver={readOnly ? undefined : (e) => onDragOver(e, row)}
                onDragLeave={() => setDropAt((at) => (at?.id === row.id ? null : at))}
                onDrop={readOnly ? undefined : (e) => onDrop(e, row)}
              >
                {!readOnly && (
                  <span
                    className="drag-handle"
                    draggable
                    title="Drag to move (Tab and Shift+Tab also move)"
                    aria-hidden="true"
                    onDragStart={(e) => {
                      dragged.current = row;
                      e.dataTransfer.effectAllowed = 'move';
                      e.dataTransfer.setData('text/plain', row.text);
                    }}
                    onDragEnd={() => {
                      dragged.current = null;
                      setDropAt(null);
                    }}
                  >
                    ⠿
                  </span>
                )}
                <TaskCheckbox row={row} disabled={readOnly} onToggle={() => void run(() => actions.toggle(row))} />
                <input
                  ref={focusId === row.id ? focusRef : undefined}
                  data-row={row.id}
                  className={row.completed ? 'done' : undefined}
                  defaultValue={row.text}
                  key={row.text}
                  readOnly={readOnly}
                  aria-label="Task"
                  aria-invalid={characters(row.text) > MAX_TASK_CHARS}
                  onKeyDown={readOnly ? undefined : (e) => onTaskKey(e, row, index)}
                  onBlur={readOnly ? undefined : (e) => void save(row, e.currentTarget.value)}
                  onFocus={() => setFocusId((pending) => (pending === row.id ? pending : null))}
                />
                {onOpenDetails && (
                  <button
                    type="button"
                    className="icon"
                    aria-label={`Details: ${row.text}`}
                    aria-expanded={row.id === selectedId}
                    onClick={() => onOpenDetails(row.id)}
                  >
                    ⋯
                  </button>
                )}
              </div>
            );
          })}
        </div>
      </div>
      {!readOnly && !draft && (
        <button type="button" className="secondary" onClick={() => openDraft({ asChild: false, depth: 0 })}>
          Add task
        </button>
      )}
    </div>
  );
}
