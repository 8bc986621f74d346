import { useCallback, useRef, useState } from 'react';

/** One undoable outline edit: what it did, how to take it back and how to do it again. */
export interface HistoryEntry {
  /** Shown in the toast and the palette, e.g. "Delete “Buy milk”". */
  label: string;
  undo: () => Promise<void>;
  redo: () => Promise<void>;
}

/** The toast key of the outline's undo toasts: a newer one replaces the older, whose Undo no longer applies. */
export const UNDO_TOAST = 'outline-undo';

/** Edits kept for undo, per outline (the oldest are dropped beyond this). */
const MAX_ENTRIES = 200;

/**
 * The outline's undo and redo stacks. Steps run one after another (a second Ctrl+Z waits for the
 * first), and a task recreated by an undo gets a new id from the service: {@link alias} records
 * old id → new id and {@link resolve} follows those links, so older entries still reach their task.
 */
export function useUndoHistory() {
  const undoStack = useRef<HistoryEntry[]>([]);
  const redoStack = useRef<HistoryEntry[]>([]);
  const aliases = useRef(new Map<string, string>());
  const queue = useRef<Promise<void>>(Promise.resolve());
  // Re-render when the stacks change (the palette and buttons show what can be undone).
  const [, setVersion] = useState(0);
  const changed = () => setVersion((v) => v + 1);

  const resolve = useCallback((id: string): string => {
    let current = id;
    for (let hops = 0; hops < 1000 && aliases.current.has(current); hops++) current = aliases.current.get(current)!;
    return current;
  }, []);
  const alias = useCallback((from: string, to: string) => {
    if (from !== to) aliases.current.set(from, to);
  }, []);

  /**
   * Records an edit as soon as it starts, so a Ctrl/Cmd+Z pressed while its request is still on the
   * way takes back this edit and not the one before. `pending` is the edit's own work: undo and redo
   * steps wait for it, and an edit that fails leaves the history.
   */
  const record = useCallback((entry: HistoryEntry, pending: Promise<unknown> = Promise.resolve()) => {
    undoStack.current.push(entry);
    if (undoStack.current.length > MAX_ENTRIES) undoStack.current.shift();
    redoStack.current = [];
    changed();
    const finished = pending.then(
      () => undefined,
      () => {
        undoStack.current = undoStack.current.filter((e) => e !== entry);
        redoStack.current = redoStack.current.filter((e) => e !== entry);
        changed();
      },
    );
    queue.current = queue.current.then(() => finished);
  }, []);

  const step = useCallback((from: 'undo' | 'redo'): Promise<HistoryEntry | undefined> => {
    const run = queue.current.then(async () => {
      const source = from === 'undo' ? undoStack.current : redoStack.current;
      const entry = source.pop();
      if (!entry) return undefined;
      try {
        await (from === 'undo' ? entry.undo() : entry.redo());
      } catch (error) {
        changed();
        throw error;
      }
      (from === 'undo' ? redoStack.current : undoStack.current).push(entry);
      changed();
      return entry;
    });
    queue.current = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }, []);

  return {
    record,
    resolve,
    alias,
    /** Takes back the latest edit; resolves to it (undefined when there was none). @throws the API error of a failed step. */
    undo: useCallback(() => step('undo'), [step]),
    /** Does again the latest undone edit. @throws the API error of a failed step. */
    redo: useCallback(() => step('redo'), [step]),
    canUndo: undoStack.current.length > 0,
    canRedo: redoStack.current.length > 0,
    /** The edit Ctrl/Cmd+Z would take back. */
    nextUndo: undoStack.current.at(-1)?.label,
  };
}

/** The outline's undo history as {@link useUndoHistory} returns it. */
export type UndoHistory = ReturnType<typeof useUndoHistory>;
