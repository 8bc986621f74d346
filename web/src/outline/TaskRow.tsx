import {
  useEffect,
  useState,
  type CSSProperties,
  type DragEvent,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type Ref,
} from 'react';
import { ChevronDown, ChevronRight, GripVertical, MoreHorizontal } from 'lucide-react';
import { MAX_TASK_CHARS, characters, type Row } from './tree';

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

/** What a row does when used; the outline owns the state. */
export interface RowHandlers {
  onKey: (event: KeyboardEvent<HTMLInputElement>) => void;
  onSave: (text: string) => void;
  onToggle: () => void;
  onCollapse: (collapsed: boolean) => void;
  onMouseDown: (event: MouseEvent) => void;
  onFocus: () => void;
  onOpenDetails?: () => void;
  drag?: {
    onDragStart: (event: DragEvent) => void;
    onDragEnd: () => void;
    onDragOver: (event: DragEvent<HTMLDivElement>) => void;
    onDragLeave: () => void;
    onDrop: (event: DragEvent<HTMLDivElement>) => void;
  };
}

/**
 * One task of the outline: drag handle, branch toggle, checkbox, the text (an input), its chips
 * (assignees, dates, field values) and the details button.
 */
export function TaskRow({
  row,
  style,
  readOnly,
  hasChildren,
  collapsed,
  selected,
  detailsOpen,
  dropAt,
  inputRef,
  chips,
  handlers,
}: {
  row: Row;
  style: CSSProperties;
  readOnly: boolean;
  hasChildren: boolean;
  collapsed: boolean;
  selected: boolean;
  detailsOpen: boolean;
  dropAt?: 'beforebegin' | 'afterend';
  inputRef?: Ref<HTMLInputElement>;
  chips?: ReactNode;
  handlers: RowHandlers;
}) {
  const classes = ['task', dropAt ? `drop-${dropAt}` : '', selected ? 'selected' : ''].filter(Boolean).join(' ');
  const Chevron = collapsed ? ChevronRight : ChevronDown;
  return (
    <div
      className={classes}
      style={style}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-selected={selected}
      aria-expanded={hasChildren ? !collapsed : undefined}
      onMouseDown={handlers.onMouseDown}
      onDragOver={handlers.drag?.onDragOver}
      onDragLeave={handlers.drag?.onDragLeave}
      onDrop={handlers.drag?.onDrop}
    >
      {handlers.drag && (
        <span
          className="drag-handle"
          draggable
          title="Drag to move (Tab and Shift+Tab also move)"
          aria-hidden="true"
          onDragStart={handlers.drag.onDragStart}
          onDragEnd={handlers.drag.onDragEnd}
        >
          <GripVertical size={14} />
        </span>
      )}
      {hasChildren ? (
        <button
          type="button"
          className="icon branch-toggle"
          tabIndex={-1}
          aria-label={`${collapsed ? 'Expand' : 'Collapse'}: ${row.text}`}
          title={`${collapsed ? 'Expand' : 'Collapse'} (Ctrl/Cmd+${collapsed ? '↓' : '↑'})`}
          onClick={() => handlers.onCollapse(!collapsed)}
        >
          <Chevron size={14} aria-hidden="true" />
        </button>
      ) : (
        <span className="branch-toggle" aria-hidden="true" />
      )}
      <TaskCheckbox row={row} disabled={readOnly} onToggle={handlers.onToggle} />
      <input
        ref={inputRef}
        data-row={row.id}
        className={row.completed ? 'done' : undefined}
        defaultValue={row.text}
        key={row.text}
        readOnly={readOnly}
        aria-label="Task"
        aria-invalid={characters(row.text) > MAX_TASK_CHARS}
        onKeyDown={handlers.onKey}
        onBlur={readOnly ? undefined : (e) => handlers.onSave(e.currentTarget.value)}
        onFocus={handlers.onFocus}
      />
      {chips}
      {handlers.onOpenDetails && (
        <button
          type="button"
          className="icon"
          aria-label={`Details: ${row.text}`}
          aria-expanded={detailsOpen}
          onClick={handlers.onOpenDetails}
        >
          <MoreHorizontal size={16} aria-hidden="true" />
        </button>
      )}
    </div>
  );
}
