import type { KeyboardEvent } from 'react';

/** The flow's cards on screen, in document order (cards in folded lanes are not rendered). */
function cards(from: Element): HTMLElement[] {
  const root = from.closest('.flow');
  return root ? [...root.querySelectorAll<HTMLElement>('[data-card]')] : [];
}

/** The card of the step holding the lane that `card` is in (its parent step), or null at the top. */
function parentCard(card: HTMLElement): HTMLElement | null {
  const item = card.closest('li.flow-item');
  const parent = item?.parentElement?.closest('li.flow-item');
  return parent?.querySelector<HTMLElement>(':scope > .flow-card [data-card]') ?? null;
}

/** The first card inside the lanes of `card`'s step, or null when it holds none (or they are folded). */
function firstChildCard(card: HTMLElement): HTMLElement | null {
  const item = card.closest('li.flow-item');
  return item?.querySelector<HTMLElement>(':scope > .lanes [data-card]') ?? null;
}

/**
 * Arrow keys on a flow card (docs "Web app", "Keyboard"): ↓/↑ the next or previous card in reading
 * order (into and out of lanes), → the first step inside this one's lanes (unfolding them through
 * `unfold` first), ← the step holding this lane, Home/End the first and last card. True when the
 * key was one of those (the event is then handled).
 */
export function moveThroughFlow(e: KeyboardEvent<HTMLElement>, unfold: () => boolean): boolean {
  if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return false;
  const card = e.currentTarget;
  const all = cards(card);
  const at = all.indexOf(card);
  let target: HTMLElement | null | undefined;
  if (e.key === 'ArrowDown') target = all[at + 1];
  else if (e.key === 'ArrowUp') target = all[at - 1];
  else if (e.key === 'Home') target = all[0];
  else if (e.key === 'End') target = all.at(-1);
  else if (e.key === 'ArrowLeft') target = parentCard(card);
  else if (e.key === 'ArrowRight') {
    if (unfold()) {
      // Folded lanes were unfolded: they render on the next frame.
      e.preventDefault();
      requestAnimationFrame(() => firstChildCard(card)?.focus());
      return true;
    }
    target = firstChildCard(card);
  } else return false;
  e.preventDefault();
  target?.focus();
  return true;
}
