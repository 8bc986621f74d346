import { createContext, useContext } from 'react';
import type { Kinds } from './kinds';
import type { Definition, Path } from './model';
import type { Problem } from './validate';
import type { BuilderAction, Selection } from './state';
import { fieldId } from './context';

/** What the flow's cards and the side panel do to the draft (given by the builder screen). */
export interface StepOps {
  definition: Definition;
  kinds: Kinds;
  /** Applies a change to the draft; `touch` marks the card at that path as edited. */
  update(change: (d: Definition) => Definition, touch?: Path): void;
  /** Changes the draft's step lists (the selection and the folded lanes follow the steps). */
  dispatch(action: Extract<BuilderAction, { type: 'insert' | 'remove' | 'move' | 'replace' }>): void;
  /** Shows a toast, optionally with an Undo that puts `before` back. */
  notify(message: string, before?: Definition): void;
  /** Opens the kind picker to add a step to the list at `listPath` before `index` (or to choose the trigger). */
  pick(listPath: Path | 'trigger', index?: number): void;
  /** What the side panel shows. */
  selected: Selection;
  /** Opens the side panel on the trigger or a step (`null` closes it, focusing the card it showed). */
  select(selected: Selection): void;
  /** Lanes drawn folded, by path key. */
  collapsed: Set<string>;
  /** Folds or unfolds the lane at `lane` (a step's nested list). */
  toggleLane(lane: Path, open?: boolean): void;
  /** The problems shown (the service's verdict; the builder's own checks on cards already edited). */
  problems: Problem[];
  /** How many of those belong to the trigger or to the step at `path` itself (not the steps inside it). */
  problemCount(path: Path | 'trigger'): number;
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

/** Moves focus to the flow's card of the trigger or of the step at `path` once it is on screen. */
export function focusCard(path: Path | 'trigger'): void {
  const key = path === 'trigger' ? 'trigger' : pathKey(path);
  requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-card="${CSS.escape(key)}"]`)?.focus());
}

/**
 * The card to focus once the step at `path` is deleted: the step before it in its list, else the
 * step holding the list (a lane's owner), else the trigger.
 */
export function cardBefore(path: Path): Path | 'trigger' {
  const index = path.at(-1) as number;
  const list = path.slice(0, -1);
  if (index > 0) return [...list, index - 1];
  for (let i = list.length - 1; i >= 0; i--) if (typeof list[i] === 'number') return list.slice(0, i + 1);
  return 'trigger';
}

/** Moves focus to the side panel once it shows (its first control is then one Tab away). */
export function focusPanel(): void {
  requestAnimationFrame(() => document.getElementById(PANEL_ID)?.focus());
}

/** The side panel's DOM id (the cards' `aria-controls`). */
export const PANEL_ID = 'step-panel';

const FOCUSABLE = 'input, select, textarea, button, [contenteditable="true"], [tabindex]:not([tabindex="-1"])';

/**
 * Brings the field at `path` into view and focuses it, once the side panel shows its step (two frames):
 * the control with the field's id, else the first control of the nearest field that exists
 * (a list item's path falls back to its list, then to the panel).
 */
export function revealField(path: Path): void {
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      for (let n = path.length; n > 0; n--) {
        const el = document.getElementById(fieldId(path.slice(0, n))) ?? (n === 1 ? document.getElementById(PANEL_ID) : null);
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
