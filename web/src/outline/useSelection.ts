import { useRef, useState, type MouseEvent } from 'react';
import type { Row } from './tree';

/**
 * The outline's multi-selection (docs "Web app", "Outline"): Shift+click and Shift+↑/↓ select a
 * range from the anchor (the task focused last), a plain click elsewhere clears it. `shown` is the
 * rows on screen in order, `rows` the whole outline.
 */
export function useSelection(shown: readonly Row[], rows: readonly Row[]) {
  const [selection, setSelection] = useState<ReadonlySet<string>>(new Set());
  const anchor = useRef<string | null>(null);
  const extending = useRef(false);
  const shownIndex = new Map(shown.map((r, i) => [r.id, i]));
  const clear = () => setSelection(new Set());

  /** Selects from the anchor (or `row`) to `row`. */
  const selectTo = (row: Row) => {
    const from = shownIndex.get(anchor.current ?? row.id) ?? shownIndex.get(row.id)!;
    const to = shownIndex.get(row.id)!;
    setSelection(new Set(shown.slice(Math.min(from, to), Math.max(from, to) + 1).map((r) => r.id)));
  };
  return {
    selection,
    clear,
    /** The selected rows in document order. */
    chosen: () => rows.filter((r) => selection.has(r.id)),
    /** The selected rows in document order, or just `row` when it is not among them. */
    chosenWith: (row: Row) => (selection.has(row.id) ? rows.filter((r) => selection.has(r.id)) : [row]),
    /** ↑/↓ from `row` to `next`: with Shift the range grows to `next`, without it the selection ends. */
    step(row: Row, next: Row, shift: boolean) {
      if (shift) {
        anchor.current ??= row.id;
        extending.current = true;
        selectTo(next);
      } else {
        anchor.current = null;
        clear();
      }
    },
    /** A press on a row: Shift selects the range to it; a plain press (not on its controls) ends the selection. */
    onMouseDown(row: Row, e: MouseEvent) {
      if (e.shiftKey) {
        e.preventDefault();
        // The range starts at the task focused last (or this one).
        anchor.current ??= row.id;
        selectTo(row);
      } else if (selection.size > 0 && !(e.target as HTMLElement).closest('button, input[type=checkbox]')) {
        anchor.current = row.id;
        clear();
      }
    },
    /** A row got the focus: moved by Shift+↑/↓ it extends the selection; any other focus starts a new range there. */
    onFocus(row: Row) {
      if (!extending.current) anchor.current = row.id;
      extending.current = false;
    },
  };
}

/** The outline's selection as {@link useSelection} returns it. */
export type Selection = ReturnType<typeof useSelection>;
