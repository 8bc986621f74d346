import { useCallback, useMemo, useRef, useState } from 'react';
import { useTaskChips } from './chips';
import { useCollapsed } from './collapse';
import { useOutlineCommands } from './commands';
import { useOutlineEdits } from './edits';
import { NO_FILTER, useTaskMatches, type TaskFilter } from './filters';
import type { KeyTarget } from './keys';
import { useNewTaskLine } from './NewTaskLine';
import { useRowDrag } from './rowDrag';
import { parents, toRows, visibleRows, type TaskItem } from './tree';
import { useOutlineActions } from './useActions';
import { useSelection } from './useSelection';

/**
 * Everything the outline of project `projectId` shows and does, composed: its rows (collapsed
 * branches and the filter applied), chips, selection, new-task line, edits, the palette's commands,
 * the keys' target (`outline/keys.ts`) and row dragging. `Outline` renders it.
 */
export function useOutline(projectId: string, workspaceId: string | undefined, tasks: readonly TaskItem[], readOnly: boolean) {
  const rows = useMemo(() => toRows(tasks), [tasks]);
  const edits = useOutlineEdits(projectId);
  const branches = useCollapsed(projectId);
  const [filter, setFilter] = useState<TaskFilter>(NO_FILTER);
  const found = useTaskMatches(projectId, filter);
  const chips = useTaskChips(projectId, workspaceId);
  const withChildren = useMemo(() => parents(rows), [rows]);
  const shown = useMemo(
    () => visibleRows(rows, branches.collapsed, found.on ? (found.matches ?? new Set()) : undefined),
    [rows, branches.collapsed, found.on, found.matches],
  );
  const [focusId, setFocusId] = useState<string | null>(null);
  const focused = useCallback(() => setFocusId(null), []);
  const selection = useSelection(shown, rows);
  const searchBox = useRef<HTMLInputElement>(null);
  const actions = useOutlineActions({ edits, rows, shown, selection, focus: setFocusId, openLine: (draft) => line.openDraft(draft) });
  const line = useNewTaskLine({ create: (text, place) => edits.create(text, place), onError: actions.setError, focus: setFocusId });

  // Commands from the Ctrl/Cmd+K palette.
  useOutlineCommands((command) => {
    if (command === 'undo' || command === 'redo') void actions.undo(command === 'redo');
    else if (command === 'search') searchBox.current?.focus();
    else if (command === 'collapse-all') branches.all(withChildren);
    else if (command === 'expand-all') branches.all([]);
    else if (command === 'show-open') setFilter({ ...NO_FILTER, completion: 'open' });
    else if (command === 'show-completed') setFilter({ ...NO_FILTER, completion: 'done' });
    else if (command === 'add-task' && !readOnly) actions.openDraft({ asChild: false, depth: 0 });
  });

  const keyTarget: KeyTarget = {
    rows,
    shown,
    readOnly,
    withChildren,
    filtering: found.on,
    branches,
    selection,
    focus: setFocusId,
    undo: (redo) => void actions.undo(redo),
    save: actions.save,
    toggle: actions.toggle,
    remove: actions.remove,
    openDraft: actions.openDraft,
    move: actions.move,
  };
  const drag = useRowDrag((moving, to) => void actions.run(() => edits.move(moving, to, rows)));
  return {
    rows,
    shown,
    branches,
    filter,
    setFilter,
    found,
    chips,
    withChildren,
    focusId,
    setFocusId,
    focused,
    selection,
    searchBox,
    actions,
    line,
    keyTarget,
    drag,
  };
}
