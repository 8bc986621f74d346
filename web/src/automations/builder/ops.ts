import { createContext, useContext } from 'react';
import type { Kinds } from './kinds';
import type { Definition, Path } from './model';
import type { Problem } from './validate';
import { fieldId } from './context';

/** What the step cards do to the draft (given by the builder screen). */
export interface StepOps {
  definition: Definition;
  kinds: Kinds;
  /** Applies a change to the draft. */
  update(change: (d: Definition) => Definition): void;
  /** Shows a toast, optionally with an Undo that puts `before` back. */
  notify(message: string, before?: Definition): void;
  /** Opens the kind picker to add a step to the list at `listPath` before `index`. */
  pick(listPath: Path, index: number): void;
  /** Cards showing their form, by path key. */
  expanded: Set<string>;
  toggle(path: Path, open?: boolean): void;
  /** The problems shown (the service's save-time error; the builder's own checks on cards already edited). */
  problems: Problem[];
  /** Marks the card holding `path` as edited: its own problems show from now on. */
  touch(path: Path): void;
}

/** See {@link StepOps}. */
export const StepOpsContext = createContext<StepOps | null>(null);

/** The builder's step operations. */
export function useStepOps(): StepOps {
  const ops = useContext(StepOpsContext);
  if (!ops) throw new Error('StepOpsContext missing');
  return ops;
}

/** A stable key for a path (cards, focus). */
export function pathKey(path: Path): string {
  return path.join('.');
}

/** Moves focus to the header of the card at `path` once it is on screen. */
export function focusCard(path: Path): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-card="${CSS.escape(pathKey(path))}"]`)?.focus());
}

const FOCUSABLE = 'input, select, textarea, button, [contenteditable="true"], [tabindex]:not([tabindex="-1"])';

/**
 * Brings the field at `path` into view and focuses it, once its card has opened (two frames):
 * the control with the field's id, else the first control of the nearest field that exists
 * (a list item's path falls back to its list, then to its step's card).
 */
export function revealField(path: Path): void {
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      for (let n = path.length; n > 0; n--) {
        const el =
          document.getElementById(fieldId(path.slice(0, n))) ??
          document.querySelector<HTMLElement>(`[data-card="${CSS.escape(pathKey(path.slice(0, n)))}"]`);
        if (!el) continue;
        const target = el.matches(FOCUSABLE)
          ? el
          : (el.querySelector<HTMLElement>(FOCUSABLE) ?? el.closest('.field')?.querySelector<HTMLElement>(FOCUSABLE) ?? el);
        target.scrollIntoView({ block: 'center' });
        target.focus({ preventScroll: true });
        return;
      }
    }),
  );
}
