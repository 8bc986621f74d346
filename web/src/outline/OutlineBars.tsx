import { CheckSquare, Trash2 } from 'lucide-react';
import { MAX_TASK_CHARS } from './tree';

/** What can be done with the selected tasks. */
export function SelectionBar(props: {
  count: number;
  allCompleted: boolean;
  onToggle: () => void;
  onDelete: () => void;
  onClear: () => void;
}) {
  return (
    <div className="outline-selection" role="toolbar" aria-label="Selected tasks">
      <span>
        {props.count} {props.count === 1 ? 'task' : 'tasks'} selected
      </span>
      <button type="button" className="secondary" onClick={props.onToggle}>
        <CheckSquare size={14} aria-hidden="true" /> {props.allCompleted ? 'Reopen' : 'Complete'}
      </button>
      <button type="button" className="secondary" onClick={props.onDelete}>
        <Trash2 size={14} aria-hidden="true" /> Delete
      </button>
      <button type="button" className="secondary" onClick={props.onClear}>
        Clear selection
      </button>
    </div>
  );
}

/** The outline's keys in one line, under the filters (the tree's accessible description, `#outline-help`). */
export function OutlineHelp() {
  return (
    <p id="outline-help" className="muted small outline-help">
      Enter adds a task · Tab / Shift+Tab indent and outdent · Alt+↑/↓ move · Ctrl/Cmd+Enter completes · Ctrl/Cmd+↑/↓ collapse and expand ·
      Shift+↑/↓ or Shift+click select · Ctrl/Cmd+Z undoes · a task is one line of up to {MAX_TASK_CHARS.toLocaleString('en')} characters
    </p>
  );
}
