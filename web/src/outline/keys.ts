import type { KeyboardEvent } from 'react';
import type { Draft } from './NewTaskLine';
import type { Selection } from './useSelection';
import { nextSibling, previousSibling, type Place, type Row } from './tree';

/** True for Ctrl (Cmd on a Mac) without Alt. */
export const mod = (e: { ctrlKey: boolean; metaKey: boolean; altKey: boolean }) => (e.ctrlKey || e.metaKey) && !e.altKey;

/** True for the undo and redo keys (with {@link mod}): Z, Shift+Z, Y. */
export const isUndoKey = (key: string) => key === 'z' || key === 'Z' || key === 'y';

/** What the outline's keys act on. */
export interface KeyTarget {
  rows: readonly Row[];
  shown: readonly Row[];
  readOnly: boolean;
  /** Tasks with subtasks. */
  withChildren: ReadonlySet<string>;
  /** Whether a filter narrows the outline (collapsed branches are shown open then). */
  filtering: boolean;
  branches: { collapsed: ReadonlySet<string>; set: (id: string, closed: boolean) => void };
  selection: Selection;
  focus: (id: string) => void;
  undo: (redo: boolean) => void;
  save: (row: Row, text: string) => Promise<unknown>;
  toggle: (rows: readonly Row[]) => void;
  remove: (rows: readonly Row[]) => void;
  openDraft: (draft: Draft) => void;
  /** Saves the line's text, then moves the task to `to`. */
  move: (row: Row, input: HTMLInputElement, to: Required<Place>) => void;
}

/** ↑/↓ (Shift: select), Escape, Ctrl/Cmd+↑/↓ (collapse, expand): the keys that also work read-only. True when handled. */
function navigate(t: KeyTarget, event: KeyboardEvent<HTMLInputElement>, row: Row): boolean {
  const { key } = event;
  if ((key === 'ArrowUp' || key === 'ArrowDown') && !event.altKey && !mod(event)) {
    const at = t.shown.findIndex((r) => r.id === row.id);
    const next = t.shown[at + (key === 'ArrowUp' ? -1 : 1)];
    if (!next) return true;
    event.preventDefault();
    t.selection.step(row, next, event.shiftKey);
    t.focus(next.id);
    return true;
  }
  if (key === 'Escape') {
    event.currentTarget.value = row.text;
    t.selection.clear();
    return true;
  }
  if (mod(event) && (key === 'ArrowUp' || key === 'ArrowDown')) {
    event.preventDefault();
    if (t.withChildren.has(row.id)) t.branches.set(row.id, key === 'ArrowUp');
    return true;
  }
  return false;
}

/** Tab and Shift+Tab (indent, outdent), Alt+↑/↓ (move among siblings). True when handled. */
function restructure(t: KeyTarget, event: KeyboardEvent<HTMLInputElement>, row: Row): boolean {
  const input = event.currentTarget;
  const index = t.rows.findIndex((r) => r.id === row.id);
  const { key } = event;
  if (key === 'Tab' && !event.shiftKey) {
    const sibling = previousSibling(t.rows, index);
    if (!sibling) return true;
    event.preventDefault();
    t.branches.set(sibling.id, false);
    t.move(row, input, { taskId: sibling.id, position: 'beforeend' });
    return true;
  }
  if (key === 'Tab' && event.shiftKey) {
    if (!row.parentId) return true;
    event.preventDefault();
    t.move(row, input, { taskId: row.parentId, position: 'afterend' });
    return true;
  }
  if (event.altKey && (key === 'ArrowUp' || key === 'ArrowDown')) {
    const up = key === 'ArrowUp';
    const sibling = up ? previousSibling(t.rows, index) : nextSibling(t.rows, index);
    if (!sibling) return true;
    event.preventDefault();
    t.move(row, input, { taskId: sibling.id, position: up ? 'beforebegin' : 'afterend' });
    return true;
  }
  return false;
}

/** Undo and redo, complete, delete, Enter (a new task below): the editing keys. */
function edit(t: KeyTarget, event: KeyboardEvent<HTMLInputElement>, row: Row): void {
  const input = event.currentTarget;
  const { key } = event;
  if (mod(event) && isUndoKey(key)) {
    // An unsaved change in this line is the browser's to undo; past edits are the outline's.
    if (input.value !== row.text && !event.shiftKey && key !== 'y') return;
    event.preventDefault();
    if (input.value !== row.text) input.value = row.text;
    t.undo(event.shiftKey || key === 'y');
  } else if (mod(event) && key === 'Enter') {
    event.preventDefault();
    void t.save(row, input.value);
    t.toggle(t.selection.chosenWith(row));
  } else if (mod(event) && event.shiftKey && key === 'Backspace') {
    event.preventDefault();
    t.remove(t.selection.chosenWith(row));
  } else if (key === 'Enter') {
    event.preventDefault();
    void t.save(row, input.value);
    const open = t.withChildren.has(row.id) && !t.branches.collapsed.has(row.id) && !t.filtering;
    t.openDraft({ after: row, asChild: open, depth: open ? row.depth + 1 : row.depth });
  } else if (key === 'Backspace' && input.value === '') {
    event.preventDefault();
    t.remove([row]);
  }
}

/**
 * A task line's keys (docs "Web app", "Outline"): ↑/↓ go between tasks (Shift selects), Escape
 * drops the unsaved text and the selection, Ctrl/Cmd+↑/↓ collapse and expand; when editable also
 * Enter adds a task below, Tab and Shift+Tab indent and outdent, Alt+↑/↓ move among siblings,
 * Ctrl/Cmd+Enter completes, Ctrl/Cmd+Z and Shift+Ctrl/Cmd+Z (or Y) undo and redo, Backspace on an
 * empty task or Ctrl/Cmd+Shift+Backspace deletes.
 */
export function onTaskKey(t: KeyTarget, event: KeyboardEvent<HTMLInputElement>, row: Row): void {
  if (navigate(t, event, row) || t.readOnly) return;
  if (restructure(t, event, row)) return;
  edit(t, event, row);
}

/** Undo and redo with the focus on a checkbox or a button of the outline (a text field has its own). */
export function onOutlineKey(e: KeyboardEvent<HTMLElement>, readOnly: boolean, undo: (redo: boolean) => void): void {
  const target = e.target as HTMLElement;
  if (readOnly || !mod(e) || (target instanceof HTMLInputElement && target.type !== 'checkbox') || target instanceof HTMLTextAreaElement)
    return;
  if (isUndoKey(e.key)) {
    e.preventDefault();
    void undo(e.shiftKey || e.key === 'y');
  }
}
