import { CheckSquare, Trash2 } from 'lucide-react';

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
