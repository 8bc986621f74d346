import { useEffect, useState, type Ref } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Search, X } from 'lucide-react';
import { taskMatchesQuery, type TaskQuery } from './api';

/** What the outline is narrowed to (docs "Web app", "Search and filters"); empty strings mean "any". */
export interface TaskFilter {
  search: string;
  assignee: string;
  completion: 'all' | 'open' | 'done';
  /** Due on or after this date (YYYY-MM-DD). */
  dueAfter: string;
  /** Due on or before this date (YYYY-MM-DD). */
  dueBefore: string;
}

/** No filter: the whole outline. */
export const NO_FILTER: TaskFilter = { search: '', assignee: '', completion: 'all', dueAfter: '', dueBefore: '' };

/** True when the filter narrows anything. */
export function isFiltering(f: TaskFilter): boolean {
  return f.search.trim() !== '' || f.assignee !== '' || f.completion !== 'all' || f.dueAfter !== '' || f.dueBefore !== '';
}

/** The day after `date` (YYYY-MM-DD): the service's dueBefore is exclusive, the filter's "to" inclusive. */
function dayAfter(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return Number.isNaN(next.getTime()) ? date : next.toISOString().slice(0, 10);
}

/**
 * The ids of the tasks matching `filter`, asked of the service (`GET .../tasks` with search,
 * assignee, completed, dueAfter, dueBefore), every page; undefined while nothing is filtered.
 * The search text waits 250 ms after the last key.
 */
export function useTaskMatches(projectId: string, filter: TaskFilter) {
  const [search, setSearch] = useState(filter.search);
  useEffect(() => {
    const timer = setTimeout(() => setSearch(filter.search), 250);
    return () => clearTimeout(timer);
  }, [filter.search]);
  const f = { ...filter, search };
  const on = isFiltering(f);
  const query: TaskQuery = {
    ...(f.search.trim() ? { search: f.search.trim() } : {}),
    ...(f.assignee ? { assignee: f.assignee } : {}),
    ...(f.completion !== 'all' ? { completed: f.completion === 'done' } : {}),
    ...(f.dueAfter ? { dueAfter: f.dueAfter } : {}),
    ...(f.dueBefore ? { dueBefore: dayAfter(f.dueBefore) } : {}),
  };
  const matches = useQuery(taskMatchesQuery(projectId, query, on));
  return { on, matches: on ? matches.data : undefined, error: on ? matches.error : null };
}

/** The search box and filters above the outline. */
export function OutlineFilters({
  filter,
  onChange,
  members,
  count,
  searchRef,
}: {
  filter: TaskFilter;
  onChange: (next: TaskFilter) => void;
  members: readonly { handle: string; displayName?: string }[];
  /** How many tasks match, when filtering. */
  count?: number;
  searchRef?: Ref<HTMLInputElement>;
}) {
  const set = <K extends keyof TaskFilter>(key: K, value: TaskFilter[K]) => onChange({ ...filter, [key]: value });
  return (
    <div className="outline-filters" role="search" aria-label="Search and filter tasks">
      <label className="outline-search">
        <Search size={16} aria-hidden="true" />
        <span className="visually-hidden">Search tasks</span>
        <input
          ref={searchRef}
          type="search"
          placeholder="Search tasks"
          value={filter.search}
          onChange={(e) => set('search', e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Escape' && set('search', '')}
        />
      </label>
      <label>
        <span className="visually-hidden">Assignee</span>
        <select aria-label="Assignee" value={filter.assignee} onChange={(e) => set('assignee', e.currentTarget.value)}>
          <option value="">Anyone</option>
          {members.map((m) => (
            <option key={m.handle} value={m.handle}>
              @{m.handle}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span className="visually-hidden">Completion</span>
        <select
          aria-label="Completion"
          value={filter.completion}
          onChange={(e) => set('completion', e.currentTarget.value as TaskFilter['completion'])}
        >
          <option value="all">Open and completed</option>
          <option value="open">Open</option>
          <option value="done">Completed</option>
        </select>
      </label>
      <span className="outline-date-filter" role="group" aria-label="Due between">
        Due
        <input type="date" aria-label="Due from" value={filter.dueAfter} onChange={(e) => set('dueAfter', e.currentTarget.value)} />
        <span aria-hidden="true">–</span>
        <input type="date" aria-label="Due to" value={filter.dueBefore} onChange={(e) => set('dueBefore', e.currentTarget.value)} />
      </span>
      {isFiltering(filter) && (
        <>
          <span role="status" className="muted small">
            {count === undefined ? 'Searching…' : `${count} matching ${count === 1 ? 'task' : 'tasks'}`}
          </span>
          <button type="button" className="secondary outline-clear" onClick={() => onChange(NO_FILTER)}>
            <X size={14} aria-hidden="true" /> Clear filters
          </button>
        </>
      )}
    </div>
  );
}
