import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Plus } from 'lucide-react';
import { errorMessage } from '../api/client';
import { useCollapsed } from './collapse';
import { useOutlineEdits } from './edits';
import { NO_FILTER, OutlineFilters, useTaskMatches, type TaskFilter } from './filters';
import { OUTLINE_COMMAND, type OutlineCommand } from './commands';
import { useToast } from '../components/Toasts';
import { UNDO_TOAST } from './history';
import { SelectionBar } from './OutlineBars';
import { useTaskChips } from './chips';
import { TaskChips } from './TaskChips';
import { NewTaskRow, useNewTaskLine, type Draft } from './NewTaskLine';
import { useRowDrag } from './rowDrag';
import { TaskRow } from './TaskRow';
import { MAX_TASK_CHARS, nextSibling, parents, previousSibling, toRows, visibleRows, type Place, type Row, type TaskItem } from './tree';
import './outline.css';

const ROW_PX = 38;

type Item = { kind: 'task'; row: Row } | { kind: 'draft'; depth: number };

/** True for Ctrl (Cmd on a Mac) without Alt. */
const mod = (e: { ctrlKey: boolean; metaKey: boolean; altKey: boolean }) => (e.ctrlKey || e.metaKey) && !e.altKey;

/**
 * The project outline, keyboard first (docs "Web app", "Outline"): Enter adds a task below, Tab and
 * Shift+Tab indent and outdent, Alt+↑/↓ move among siblings, ↑/↓ go between tasks, Ctrl/Cmd+Enter
 * completes, Ctrl/Cmd+↑/↓ collapse and expand, Shift+click and Shift+↑/↓ select several, Ctrl/Cmd+Z
 * and Shift+Ctrl/Cmd+Z undo and redo every edit, Backspace on an empty task or
 * Ctrl/Cmd+Shift+Backspace deletes (with Undo in a toast). Only visible rows are rendered, so a
 * 10,000-task project opens and scrolls at once.
 */
export function Outline({
  projectId,
  workspaceId,
  tasks,
  readOnly,
  selectedId,
  onOpenDetails,
}: {
  projectId: string;
  workspaceId?: string;
  tasks: readonly TaskItem[];
  readOnly: boolean;
  /** The task whose details are open. */
  selectedId?: string;
  /** Opens a task's details (assignees, dates, note, fields, comments). */
  onOpenDetails?: (taskId: string) => void;
}) {
  const rows = useMemo(() => toRows(tasks), [tasks]);
  const edits = useOutlineEdits(projectId);
  const { history } = edits;
  const branches = useCollapsed(projectId);
  const [filter, setFilter] = useState<TaskFilter>(NO_FILTER);
  const found = useTaskMatches(projectId, filter);
  const chips = useTaskChips(projectId, workspaceId);
  const withChildren = useMemo(() => parents(rows), [rows]);
  const shown = useMemo(
    () => visibleRows(rows, branches.collapsed, found.on ? (found.matches ?? new Set()) : undefined),
    [rows, branches.collapsed, found.on, found.matches],
  );
  const [focusId, setFocusId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const [selection, setSelection] = useState<ReadonlySet<string>>(new Set());
  const anchor = useRef<string | null>(null);
  const extending = useRef(false);
  const scroller = useRef<HTMLDivElement>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  const line = useNewTaskLine({ create: (text, place) => edits.create(text, place), onError: setError, focus: setFocusId });
  const { draft } = line;

  const items = useMemo<Item[]>(() => {
    const list: Item[] = shown.map((row) => ({ kind: 'task', row }));
    if (draft) {
      const at = draft.after ? list.findIndex((i) => i.kind === 'task' && i.row.id === draft.after!.id) + 1 : list.length;
      list.splice(at > 0 || !draft.after ? at : list.length, 0, { kind: 'draft', depth: draft.depth });
    }
    return list;
  }, [shown, draft]);
  const indexOf = useMemo(() => new Map(rows.map((r, i) => [r.id, i])), [rows]);
  const shownIndex = useMemo(() => new Map(shown.map((r, i) => [r.id, i])), [shown]);

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

  const run = useCallback(async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(errorMessage(e));
    }
  }, []);

  const undo = useCallback(
    (redo = false) =>
      run(async () => {
        const entry = await (redo ? history.redo() : history.undo());
        toast({
          message: entry ? `${redo ? 'Redone' : 'Undone'}: ${entry.label}` : `Nothing to ${redo ? 'redo' : 'undo'}`,
          key: UNDO_TOAST,
        });
      }),
    [history, run, toast],
  );
  const removeRows = (chosen: readonly Row[]) => {
    if (chosen.length === 0) return;
    setSelection(new Set());
    const first = shownIndex.get(chosen[0]!.id) ?? 0;
    const landing = shown
      .slice(0, first)
      .reverse()
      .find((r) => !chosen.some((c) => c.id === r.id));
    if (landing) setFocusId(landing.id);
    void run(async () =>
      toast({
        message: await edits.remove(chosen, rows),
        action: { label: 'Undo', run: () => void undo(false) },
        durationMs: 8000,
        key: UNDO_TOAST,
      }),
    );
  };
  const toggleRows = (chosen: readonly Row[]) => void run(() => edits.toggle(chosen));

  const openDraft = (next: Draft) => {
    line.openDraft(next);
    setFocusId('draft');
  };
  const save = (row: Row, text: string) => {
    if (text === row.text || text.trim() === '') return Promise.resolve();
    return run(() => edits.rename(row, text));
  };
  const move = (row: Row, input: HTMLInputElement, to: Required<Place>) => {
    void save(row, input.value).then(() => run(() => edits.move(row, to, rows)));
    setFocusId(row.id);
  };
  /** The selected rows in document order, or just `row` when it is not among them. */
  const chosenWith = (row: Row) => (selection.has(row.id) ? rows.filter((r) => selection.has(r.id)) : [row]);
  const selectTo = (row: Row) => {
    const from = shownIndex.get(anchor.current ?? row.id) ?? shownIndex.get(row.id)!;
    const to = shownIndex.get(row.id)!;
    setSelection(new Set(shown.slice(Math.min(from, to), Math.max(from, to) + 1).map((r) => r.id)));
  };

  // Commands from the Ctrl/Cmd+K palette.
  useEffect(() => {
    const listen = (event: Event) => {
      const command = (event as CustomEvent<OutlineCommand>).detail;
      if (command === 'undo' || command === 'redo') void undo(command === 'redo');
      else if (command === 'search') searchBox.current?.focus();
      else if (command === 'collapse-all') branches.all(withChildren);
      else if (command === 'expand-all') branches.all([]);
      else if (command === 'show-open') setFilter({ ...NO_FILTER, completion: 'open' });
      else if (command === 'show-completed') setFilter({ ...NO_FILTER, completion: 'done' });
      else if (command === 'add-task' && !readOnly) openDraft({ asChild: false, depth: 0 });
    };
    window.addEventListener(OUTLINE_COMMAND, listen);
    return () => window.removeEventListener(OUTLINE_COMMAND, listen);
  });

  function onTaskKey(event: KeyboardEvent<HTMLInputElement>, row: Row) {
    const input = event.currentTarget;
    const index = indexOf.get(row.id)!;
    const at = shownIndex.get(row.id)!;
    const key = event.key;
    if ((key === 'ArrowUp' || key === 'ArrowDown') && !event.altKey && !mod(event)) {
      const next = shown[at + (key === 'ArrowUp' ? -1 : 1)];
      if (!next) return;
      event.preventDefault();
      if (event.shiftKey) {
        anchor.current ??= row.id;
        extending.current = true;
        selectTo(next);
      } else {
        anchor.current = null;
        setSelection(new Set());
      }
      setFocusId(next.id);
      return;
    }
    if (key === 'Escape') {
      input.value = row.text;
      setSelection(new Set());
      return;
    }
    if (mod(event) && (key === 'ArrowUp' || key === 'ArrowDown')) {
      event.preventDefault();
      if (withChildren.has(row.id)) branches.set(row.id, key === 'ArrowUp');
      return;
    }
    if (readOnly) return;
    if (mod(event) && (key === 'z' || key === 'Z' || key === 'y')) {
      // An unsaved change in this line is the browser's to undo; past edits are the outline's.
      if (input.value !== row.text && !event.shiftKey && key !== 'y') return;
      event.preventDefault();
      if (input.value !== row.text) input.value = row.text;
      void undo(event.shiftKey || key === 'y');
    } else if (mod(event) && key === 'Enter') {
      event.preventDefault();
      void save(row, input.value);
      toggleRows(chosenWith(row));
    } else if (mod(event) && event.shiftKey && key === 'Backspace') {
      event.preventDefault();
      removeRows(chosenWith(row));
    } else if (key === 'Enter') {
      event.preventDefault();
      void save(row, input.value);
      const open = withChildren.has(row.id) && !branches.collapsed.has(row.id) && !found.on;
      openDraft({ after: row, asChild: open, depth: open ? row.depth + 1 : row.depth });
    } else if (key === 'Tab' && !event.shiftKey) {
      const sibling = previousSibling(rows, index);
      if (!sibling) return;
      event.preventDefault();
      branches.set(sibling.id, false);
      move(row, input, { taskId: sibling.id, position: 'beforeend' });
    } else if (key === 'Tab' && event.shiftKey) {
      if (!row.parentId) return;
      event.preventDefault();
      move(row, input, { taskId: row.parentId, position: 'afterend' });
    } else if (event.altKey && (key === 'ArrowUp' || key === 'ArrowDown')) {
      const up = key === 'ArrowUp';
      const sibling = up ? previousSibling(rows, index) : nextSibling(rows, index);
      if (!sibling) return;
      event.preventDefault();
      move(row, input, { taskId: sibling.id, position: up ? 'beforebegin' : 'afterend' });
    } else if (key === 'Backspace' && input.value === '') {
      event.preventDefault();
      removeRows([row]);
    }
  }

  const { dropAt, dragHandlers } = useRowDrag((moving, to) => void run(() => edits.move(moving, to, rows)));

  const chosen = rows.filter((r) => selection.has(r.id));
  return (
    <div
      className="outline-wrap"
      onKeyDown={(e) => {
        // Undo and redo also work with the focus on a checkbox or a button of the outline.
        const target = e.target as HTMLElement;
        if (
          readOnly ||
          !mod(e) ||
          (target instanceof HTMLInputElement && target.type !== 'checkbox') ||
          target instanceof HTMLTextAreaElement
        )
          return;
        if (e.key === 'z' || e.key === 'Z' || e.key === 'y') {
          e.preventDefault();
          void undo(e.shiftKey || e.key === 'y');
        }
      }}
    >
      <OutlineFilters
        filter={filter}
        onChange={setFilter}
        members={chips.members}
        count={found.on ? found.matches?.size : undefined}
        searchRef={searchBox}
      />
      <p id="outline-help" className="muted small outline-help">
        Enter adds a task · Tab / Shift+Tab indent and outdent · Alt+↑/↓ move · Ctrl/Cmd+Enter completes · Ctrl/Cmd+↑/↓ collapse and expand
        · Shift+↑/↓ or Shift+click select · Ctrl/Cmd+Z undoes · a task is one line of up to {MAX_TASK_CHARS.toLocaleString('en')} characters
      </p>
      {(error || found.error) && (
        <p role="alert" className="error">
          {error ?? errorMessage(found.error)}
        </p>
      )}
      {!readOnly && chosen.length > 0 && (
        <SelectionBar
          count={chosen.length}
          allCompleted={chosen.every((r) => r.completed)}
          onToggle={() => toggleRows(chosen)}
          onDelete={() => removeRows(chosen)}
          onClear={() => setSelection(new Set())}
        />
      )}
      {found.on && found.matches?.size === 0 && <p className="muted">No task matches. Clear the filters to see the whole outline.</p>}
      <div
        ref={scroller}
        className="outline-scroll"
        role="tree"
        aria-label="Tasks"
        aria-describedby="outline-help"
        aria-multiselectable="true"
      >
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((v) => {
            const item = items[v.index]!;
            const style = { transform: `translateY(${v.start}px)`, height: ROW_PX };
            if (item.kind === 'draft') {
              return (
                <NewTaskRow
                  key="draft"
                  depth={item.depth}
                  style={style}
                  inputRef={focusId === 'draft' ? focusRef : undefined}
                  onFocus={() => setFocusId((pending) => (pending === 'draft' ? pending : null))}
                  onKeyDown={line.onDraftKey}
                />
              );
            }
            const { row } = item;
            return (
              <TaskRow
                key={row.id}
                row={row}
                style={{ ...style, paddingInlineStart: `${row.depth * 1.5}rem` }}
                readOnly={readOnly}
                hasChildren={withChildren.has(row.id)}
                collapsed={!found.on && branches.collapsed.has(row.id)}
                selected={selection.has(row.id)}
                detailsOpen={row.id === selectedId}
                dropAt={dropAt?.id === row.id ? dropAt.position : undefined}
                inputRef={focusId === row.id ? focusRef : undefined}
                chips={
                  <TaskChips chips={chips.of(row.id)} task={row} projectId={projectId} workspaceId={workspaceId} readOnly={readOnly} />
                }
                handlers={{
                  onKey: (e) => onTaskKey(e, row),
                  onSave: (text) => void save(row, text),
                  onToggle: () => toggleRows([row]),
                  onCollapse: (closed) => branches.set(row.id, closed),
                  onMouseDown: (e) => {
                    if (e.shiftKey) {
                      e.preventDefault();
                      // The range starts at the task focused last (or this one).
                      anchor.current ??= row.id;
                      selectTo(row);
                    } else if (selection.size > 0 && !(e.target as HTMLElement).closest('button, input[type=checkbox]')) {
                      anchor.current = row.id;
                      setSelection(new Set());
                    }
                  },
                  onFocus: () => {
                    setFocusId((pending) => (pending === row.id ? pending : null));
                    // Focus moved by Shift+↑/↓ extends the selection; any other focus starts a new range here.
                    if (!extending.current) anchor.current = row.id;
                    extending.current = false;
                  },
                  onOpenDetails: onOpenDetails && (() => onOpenDetails(row.id)),
                  drag: readOnly ? undefined : dragHandlers(row),
                }}
              />
            );
          })}
        </div>
      </div>
      {!readOnly && !draft && (
        <button type="button" className="btn-ghost outline-add" onClick={() => openDraft({ asChild: false, depth: 0 })}>
          <Plus className="icon" aria-hidden="true" />
          Add task
        </button>
      )}
    </div>
  );
}
