import { useCallback, useState } from 'react';
import { errorMessage } from '../api/client';
import { useToast } from '../components/Toasts';
import type { OutlineEdits } from './edits';
import { UNDO_TOAST } from './history';
import type { Draft } from './NewTaskLine';
import type { Place, Row } from './tree';
import type { Selection } from './useSelection';

/** What the outline's actions work on. */
interface ActionsOf {
  edits: OutlineEdits;
  /** The whole outline and the rows on screen, in order. */
  rows: readonly Row[];
  shown: readonly Row[];
  selection: Selection;
  /** Moves the focus to a task (or the new-task line, `'draft'`). */
  focus: (id: string) => void;
  /** Opens the new-task line. */
  openLine: (draft: Draft) => void;
}

/**
 * The outline's actions as its keys, buttons and palette run them (docs "Web app", "Outline"):
 * each edit's failure is shown as `error`; undo and redo say what they did in a toast, a delete
 * offers Undo in one, and the focus lands where the person continues.
 */
export function useOutlineActions({ edits, rows, shown, selection, focus, openLine }: ActionsOf) {
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const { history } = edits;
  const run = useCallback(async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(errorMessage(e));
    }
  }, []);
  const undo = useCallback(
    (redo = false) =>
      run(async () => {
        const entry = await (redo ? history.redo() : history.undo());
        toast({
          message: entry ? `${redo ? 'Redone' : 'Undone'}: ${entry.label}` : `Nothing to ${redo ? 'redo' : 'undo'}`,
          key: UNDO_TOAST,
        });
      }),
    [history, run, toast],
  );
  /** Deletes `chosen` (the focus goes to the task above that stays), with Undo in a toast. */
  const remove = (chosen: readonly Row[]) => {
    if (chosen.length === 0) return;
    selection.clear();
    const first = shown.findIndex((r) => r.id === chosen[0]!.id);
    const landing = shown
      .slice(0, Math.max(first, 0))
      .reverse()
      .find((r) => !chosen.some((c) => c.id === r.id));
    if (landing) focus(landing.id);
    void run(async () =>
      toast({
        message: await edits.remove(chosen, rows),
        action: { label: 'Undo', run: () => void undo(false) },
        durationMs: 8000,
        key: UNDO_TOAST,
      }),
    );
  };
  const save = (row: Row, text: string) => {
    if (text === row.text || text.trim() === '') return Promise.resolve();
    return run(() => edits.rename(row, text));
  };
  return {
    error,
    setError,
    run,
    undo,
    remove,
    save,
    toggle: (chosen: readonly Row[]) => void run(() => edits.toggle(chosen)),
    openDraft: (next: Draft) => {
      openLine(next);
      focus('draft');
    },
    /** Saves the line's text, then moves the task to `to`; the focus stays on it. */
    move: (row: Row, input: HTMLInputElement, to: Required<Place>) => {
      void save(row, input.value).then(() => run(() => edits.move(row, to, rows)));
      focus(row.id);
    },
  };
}
