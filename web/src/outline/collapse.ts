import { useCallback, useState } from 'react';

/** The localStorage key of a project's collapsed tasks (a JSON array of task ids). */
export function collapsedKey(projectId: string): string {
  return `taskspace.outline.collapsed.${projectId}`;
}

function read(projectId: string): Set<string> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(collapsedKey(projectId)) ?? '[]');
    return new Set(Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : []);
  } catch {
    return new Set();
  }
}

/**
 * The collapsed tasks of a project's outline, remembered in this browser (localStorage, one key
 * per project) so a branch stays closed across visits.
 */
export function useCollapsed(projectId: string) {
  const [collapsed, setCollapsed] = useState(() => read(projectId));
  const write = useCallback(
    (next: Set<string>) => {
      setCollapsed(next);
      try {
        if (next.size === 0) localStorage.removeItem(collapsedKey(projectId));
        else localStorage.setItem(collapsedKey(projectId), JSON.stringify([...next]));
      } catch {
        // Storage full or refused (private mode): the state still holds for this visit.
      }
    },
    [projectId],
  );
  return {
    collapsed,
    /** Collapses (`true`) or expands (`false`) one task. */
    set: useCallback(
      (id: string, closed: boolean) => {
        if (collapsed.has(id) === closed) return;
        const next = new Set(collapsed);
        if (closed) next.add(id);
        else next.delete(id);
        write(next);
      },
      [collapsed, write],
    ),
    /** Collapses every given task, or (an empty list) expands everything. */
    all: useCallback((ids: Iterable<string>) => write(new Set(ids)), [write]),
  };
}
