import { useTaskChips } from '../outline/chips';
import { Assignees } from './Assignees';
import { Comments } from './Comments';
import { Fields } from './Fields';
import { Note } from './Note';
import { TaskDate } from './TaskDate';

/**
 * The details of one task beside the outline (docs "Web app"): assignees, start and due date with
 * their time zone, the note, custom field values and comments. Each part is its own API resource,
 * read and written on its own; for Viewers and completed projects every control is read-only. The
 * date and the note are read only when the outline's task summaries say the task has one.
 */
export function TaskDetails(props: {
  projectId: string;
  workspaceId: string;
  task: { id: string; text: string };
  readOnly: boolean;
  onClose: () => void;
}) {
  const ref = { projectId: props.projectId, taskId: props.task.id };
  const parts = useTaskChips(props.projectId, undefined).parts(props.task.id);
  return (
    <aside className="task-details" aria-labelledby="task-details-title">
      <header className="task-details-head">
        <h2 id="task-details-title">{props.task.text}</h2>
        <button type="button" className="secondary" onClick={props.onClose}>
          Close details
        </button>
      </header>
      <Assignees task={ref} workspaceId={props.workspaceId} readOnly={props.readOnly} />
      <TaskDate task={ref} present={parts?.hasDate} readOnly={props.readOnly} />
      <Note task={ref} present={parts?.hasNote} readOnly={props.readOnly} />
      <Fields task={ref} readOnly={props.readOnly} />
      <Comments task={ref} readOnly={props.readOnly} />
    </aside>
  );
}
