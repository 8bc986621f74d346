import { Plus } from 'lucide-react';
import { errorMessage } from '../api/client';
import { OutlineFilters } from './filters';
import { onOutlineKey, onTaskKey } from './keys';
import { NewTaskRow } from './NewTaskLine';
import { OutlineHelp, SelectionBar } from './OutlineBars';
import { OutlineRows, type RowRenderers } from './OutlineRows';
import { TaskChips } from './TaskChips';
import { TaskRow } from './TaskRow';
import type { TaskItem } from './tree';
import { useOutline } from './useOutline';
import './outline.css';

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
  const o = useOutline(projectId, workspaceId, tasks, readOnly);
  const { actions, branches, chips, found, selection, setFocusId } = o;
  const { dropAt, dragHandlers } = o.drag;
  const chosen = selection.chosen();
  const render: RowRenderers = {
    draft: (depth, style, inputRef) => (
      <NewTaskRow
        key="draft"
        depth={depth}
        style={style}
        inputRef={inputRef}
        onFocus={() => setFocusId((pending) => (pending === 'draft' ? pending : null))}
        onKeyDown={o.line.onDraftKey}
      />
    ),
    task: (row, style, inputRef) => (
      <TaskRow
        key={row.id}
        row={row}
        style={{ ...style, paddingInlineStart: `${row.depth * 1.5}rem` }}
        readOnly={readOnly}
        hasChildren={o.withChildren.has(row.id)}
        collapsed={!found.on && branches.collapsed.has(row.id)}
        selected={selection.selection.has(row.id)}
        detailsOpen={row.id === selectedId}
        dropAt={dropAt?.id === row.id ? dropAt.position : undefined}
        inputRef={inputRef}
        chips={<TaskChips chips={chips.of(row.id)} task={row} projectId={projectId} workspaceId={workspaceId} readOnly={readOnly} />}
        handlers={{
          onKey: (e) => onTaskKey(o.keyTarget, e, row),
          onSave: (text) => void actions.save(row, text),
          onToggle: () => actions.toggle([row]),
          onCollapse: (closed) => branches.set(row.id, closed),
          onMouseDown: (e) => selection.onMouseDown(row, e),
          onFocus: () => {
            setFocusId((pending) => (pending === row.id ? pending : null));
            selection.onFocus(row);
          },
          onOpenDetails: onOpenDetails && (() => onOpenDetails(row.id)),
          drag: readOnly ? undefined : dragHandlers(row),
        }}
      />
    ),
  };
  return (
    // Undo and redo also work with the focus on a checkbox or a button of the outline.
    <div className="outline-wrap" onKeyDown={(e) => onOutlineKey(e, readOnly, (redo) => void actions.undo(redo))}>
      <OutlineFilters
        filter={o.filter}
        onChange={o.setFilter}
        members={chips.members}
        count={found.on ? found.matches?.size : undefined}
        searchRef={o.searchBox}
      />
      <OutlineHelp />
      {(actions.error || found.error) && (
        <p role="alert" className="error">
          {actions.error ?? errorMessage(found.error)}
        </p>
      )}
      {!readOnly && chosen.length > 0 && (
        <SelectionBar
          count={chosen.length}
          allCompleted={chosen.every((r) => r.completed)}
          onToggle={() => actions.toggle(chosen)}
          onDelete={() => actions.remove(chosen)}
          onClear={selection.clear}
        />
      )}
      {found.on && found.matches?.size === 0 && <p className="muted">No task matches. Clear the filters to see the whole outline.</p>}
      <OutlineRows shown={o.shown} draft={o.line.draft} focusId={o.focusId} onFocused={o.focused} render={render} />
      {!readOnly && !o.line.draft && (
        <button type="button" className="btn-ghost outline-add" onClick={() => actions.openDraft({ asChild: false, depth: 0 })}>
          <Plus className="icon" aria-hidden="true" />
          Add task
        </button>
      )}
    </div>
  );
}
