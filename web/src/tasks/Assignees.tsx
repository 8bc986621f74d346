import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { taskKeys } from '../api/keys';
import { membersQuery } from '../workspaces/api';
import { assigneesQuery, taskWrites, useTaskWrite, type TaskRef } from './api';

/** Who is assigned: one checkbox per member of the workspace (docs "API", "Assignees"). */
export function Assignees({ task, workspaceId, readOnly }: { task: TaskRef; workspaceId: string; readOnly: boolean }) {
  const assignees = useQuery(assigneesQuery(task));
  const members = useQuery(membersQuery(workspaceId));
  const write = useTaskWrite(task, taskKeys.assignees(task.taskId), (handles: string[]) => taskWrites.assignees(task, handles));
  // The set being saved, shown at once (the checkbox flips in the same event) until the service's answer is read back.
  const [saving, setSaving] = useState<Set<string> | null>(null);
  const current = saving ?? new Set((assignees.data ?? []).map((a) => a.handle.toLowerCase()));
  const toggle = (handle: string) => {
    // One write at a time; the boxes stay enabled meanwhile so the keyboard focus stays on them.
    if (write.isPending) return;
    const next = new Set(current);
    if (next.has(handle.toLowerCase())) next.delete(handle.toLowerCase());
    else next.add(handle.toLowerCase());
    setSaving(next);
    write.mutate([...next], { onSettled: () => setSaving(null) });
  };
  return (
    <fieldset className="detail-section" disabled={readOnly} aria-busy={write.isPending}>
      <legend>Assignees</legend>
      {(assignees.isError || members.isError) && <p className="error">{errorMessage(assignees.error ?? members.error)}</p>}
      {members.data?.map((m) => (
        <label key={m.handle} className="check">
          <input type="checkbox" checked={current.has(String(m.handle).toLowerCase())} onChange={() => toggle(String(m.handle))} />@
          {m.handle}
          {m.displayName ? ` · ${m.displayName}` : ''}
        </label>
      ))}
      {write.isError && (
        <p role="alert" className="error">
          {errorMessage(write.error)}
        </p>
      )}
    </fieldset>
  );
}
