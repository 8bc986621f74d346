import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { taskKeys } from '../api/keys';
import { taskDateQuery, taskWrites, useTaskWrite, type DatePoint, type TaskRef } from './api';
import { TimeZonePicker, timeZones } from './TimeZonePicker';

/** The two sides of a task date and how the form names them. */
const SIDES = [
  ['start', 'Start'],
  ['end', 'Due'],
] as const;

/** The browser's time zone, the default for a new date. */
function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * A task's start and due date, each with an optional time, in one time zone picked by typing part
 * of its name (docs "API", "Date"). `present`: whether the task has a date, from the task
 * summaries (read only then; undefined while unknown). `onDone`: called once a save or a removal
 * has succeeded (the outline's date popover closes then).
 */
export function TaskDate({
  task,
  readOnly,
  present,
  onDone,
}: {
  task: TaskRef;
  readOnly: boolean;
  present?: boolean;
  onDone?: () => void;
}) {
  const query = useQuery(taskDateQuery(task, present));
  const stored = { data: present === false ? null : query.data };
  const [form, setForm] = useState({ startDate: '', startTime: '', endDate: '', endTime: '', timezone: localZone() });
  const [problem, setProblem] = useState<string | null>(null);
  const zones = useMemo(() => timeZones(form.timezone, localZone()), [form.timezone]);
  useEffect(() => {
    if (stored.data === undefined) return;
    const { start, end } = stored.data ?? { start: null, end: null };
    setForm({
      startDate: start?.date ?? '',
      startTime: start?.time?.slice(0, 5) ?? '',
      endDate: end?.date ?? '',
      endTime: end?.time?.slice(0, 5) ?? '',
      timezone: end?.timezone ?? start?.timezone ?? localZone(),
    });
  }, [stored.data]);
  const save = useTaskWrite(task, taskKeys.date(task.taskId), (body: { start?: DatePoint; end?: DatePoint }) =>
    taskWrites.date(task, body),
  );
  const clear = useTaskWrite(task, taskKeys.date(task.taskId), () => taskWrites.clearDate(task), { removes: true });
  const point = (date: string, time: string): DatePoint | undefined =>
    date === '' ? undefined : { date, ...(time ? { time } : {}), timezone: form.timezone };
  const submit = () => {
    const start = point(form.startDate, form.startTime);
    const end = point(form.endDate, form.endTime);
    if (!start && !end) {
      setProblem('Give a start or a due date (or remove the date).');
      return;
    }
    setProblem(null);
    save.mutate({ ...(start ? { start } : {}), ...(end ? { end } : {}) }, { onSuccess: onDone });
  };
  const set = (key: keyof typeof form) => (e: { currentTarget: { value: string } }) => setForm({ ...form, [key]: e.currentTarget.value });
  const error = problem ?? (save.isError ? errorMessage(save.error) : clear.isError ? errorMessage(clear.error) : null);
  return (
    <fieldset className="detail-section" disabled={readOnly || save.isPending || clear.isPending}>
      <legend>Dates</legend>
      {SIDES.map(([side, label]) => (
        <div className="pair" key={side}>
          <label>
            {label} date
            <input type="date" value={form[`${side}Date`]} onChange={set(`${side}Date`)} />
          </label>
          <label>
            {label} time
            <input type="time" value={form[`${side}Time`]} onChange={set(`${side}Time`)} />
          </label>
        </div>
      ))}
      <TimeZonePicker value={form.timezone} onChange={(timezone) => setForm({ ...form, timezone })} zones={zones} />
      <p className="muted small">Leave a time empty for all day.</p>
      {!readOnly && (
        <div className="actions">
          <button type="button" onClick={submit}>
            Save dates
          </button>
          {stored.data && (
            <button type="button" className="secondary" onClick={() => clear.mutate(undefined, { onSuccess: onDone })}>
              Remove dates
            </button>
          )}
        </div>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {save.isSuccess && !save.isPending && (
        <p role="status" className="muted small">
          Dates saved.
        </p>
      )}
    </fieldset>
  );
}
