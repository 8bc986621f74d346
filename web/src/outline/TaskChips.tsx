import { useState } from 'react';
import { Calendar, CalendarPlus, ListPlus, User, UserPlus } from 'lucide-react';
import { Assignees } from '../tasks/Assignees';
import { FieldEditor } from '../tasks/Fields';
import { TaskDate } from '../tasks/TaskDate';
import { AddField } from './AddField';
import { ChipPopover } from './ChipPopover';
import type { Chips } from './chips';

/** The chips as plain text, for people who may not edit (Viewers, completed projects). */
function ReadOnlyChips({ chips }: { chips: Chips }) {
  return (
    <span className="task-chips">
      {chips.assignees.map((h) => (
        <span key={h} className="chip chip-assignee" title={`Assigned to @${h}`}>
          <User size={12} aria-hidden="true" />@{h}
        </span>
      ))}
      {chips.date && (
        <span className="chip chip-date" title="Date">
          <Calendar size={12} aria-hidden="true" />
          {chips.date}
        </span>
      )}
      {chips.fields.map((f) => (
        <span key={f.fieldId} className="chip chip-field">
          {f.name}: {f.value}
        </span>
      ))}
    </span>
  );
}

/**
 * A row's chips: assignees, the date, field values (docs "Web app", "Outline"). For people who may
 * edit, each chip is a button that edits its value in place, in a popover with the task panel's own
 * controls (tasks/Assignees, tasks/TaskDate, tasks/Fields); a task without assignees or a date
 * offers "Assign" and "Add date" chips, and one with fields it has no value for an "Add field" chip
 * (./AddField), shown while the row is hovered or focused. Every save goes through the public API
 * and refreshes the task summaries the chips are read from.
 */
export function TaskChips({
  chips,
  task,
  projectId,
  workspaceId,
  readOnly,
}: {
  chips?: Chips;
  task: { id: string; text: string };
  projectId: string;
  /** The project's workspace (its members are the possible assignees); unknown while it loads. */
  workspaceId?: string;
  readOnly: boolean;
}) {
  // The field whose popover is open stays shown after its value is cleared, until the popover closes.
  const [editing, setEditing] = useState<{ fieldId: string; name: string } | null>(null);
  // Likewise "Add field" stays while its popover is open, even once the last unset field has a value.
  const [adding, setAdding] = useState(false);
  if (!chips) return null;
  if (readOnly || workspaceId === undefined) return <ReadOnlyChips chips={chips} />;
  const ref = { projectId, taskId: task.id };
  const of = `of “${task.text}”`;
  const assigned = chips.assignees.map((h) => `@${h}`).join(', ');
  const fields =
    editing && !chips.fields.some((f) => f.fieldId === editing.fieldId) ? [...chips.fields, { ...editing, value: '—' }] : chips.fields;
  return (
    <span className="task-chips">
      <ChipPopover
        className={assigned ? 'chip chip-assignee' : 'chip chip-add'}
        label={assigned ? `Assignees ${of}: ${assigned}` : `Assign “${task.text}”`}
        title={`Assignees ${of}`}
        content={() => <Assignees task={ref} workspaceId={workspaceId} readOnly={false} />}
      >
        {assigned ? <User size={12} aria-hidden="true" /> : <UserPlus size={12} aria-hidden="true" />}
        {assigned || 'Assign'}
      </ChipPopover>
      <ChipPopover
        className={chips.date ? 'chip chip-date' : 'chip chip-add'}
        label={chips.date ? `Date ${of}: ${chips.date}` : `Add date to “${task.text}”`}
        title={`Date ${of}`}
        content={(close) => <TaskDate task={ref} present={chips.hasDate} readOnly={false} onDone={close} />}
      >
        {chips.date ? <Calendar size={12} aria-hidden="true" /> : <CalendarPlus size={12} aria-hidden="true" />}
        {chips.date ?? 'Add date'}
      </ChipPopover>
      {fields.map((f) => (
        <ChipPopover
          key={f.fieldId}
          className="chip chip-field"
          // The name starts with what the chip shows (WCAG 2.5.3, label in name).
          label={`${f.name}: ${f.value}, ${of}`}
          title={`${f.name} ${of}`}
          onOpenChange={(open) => setEditing(open ? { fieldId: f.fieldId, name: f.name } : null)}
          content={(close) => <FieldEditor task={ref} fieldId={f.fieldId} onDone={close} />}
        >
          {f.name}: {f.value}
        </ChipPopover>
      ))}
      {(chips.unset.length > 0 || adding) && (
        <ChipPopover
          className="chip chip-add"
          label={`Add field to “${task.text}”`}
          title={`Add a field to “${task.text}”`}
          onOpenChange={setAdding}
          content={(close) => <AddField task={ref} onDone={close} />}
        >
          <ListPlus size={12} aria-hidden="true" />
          Add field
        </ChipPopover>
      )}
    </span>
  );
}
