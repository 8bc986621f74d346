import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { createPortal, flushSync } from 'react-dom';

/** Space kept between the popover and the window's edges, in CSS pixels. */
const EDGE_PX = 8;
/** Space between the chip and its popover, in CSS pixels. */
const OFFSET_PX = 4;
/** What can take the keyboard focus inside the popover (the first one gets it on opening). */
const FOCUSABLE = 'input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), [tabindex="0"]';

/**
 * Places `popover` (fixed, in the top layer) under `chip`, or above it when only that fits, and
 * always inside the window: at 390 px a popover wider than the space right of its chip moves left.
 */
function place(popover: HTMLElement, chip: HTMLElement): void {
  const at = chip.getBoundingClientRect();
  const { width, height } = popover.getBoundingClientRect();
  const left = Math.max(EDGE_PX, Math.min(at.left, window.innerWidth - width - EDGE_PX));
  const below = at.bottom + OFFSET_PX;
  const above = at.top - OFFSET_PX - height;
  const top =
    below + height <= window.innerHeight - EDGE_PX
      ? below
      : above >= EDGE_PX
        ? above
        : Math.max(EDGE_PX, window.innerHeight - height - EDGE_PX);
  popover.style.left = `${left}px`;
  popover.style.top = `${top}px`;
}

/**
 * Follows the popover's state as the browser says (the chip toggles it, a click outside and Escape
 * close it): `onChange(true)` before it shows, so the content renders before the popover is
 * painted (no empty frame); `onChange(false)` once hidden, and the focus goes back to the chip.
 */
function usePopoverState(
  popover: RefObject<HTMLDivElement | null>,
  chip: RefObject<HTMLButtonElement | null>,
  onChange: (open: boolean) => void,
) {
  const changed = useRef(onChange);
  changed.current = onChange;
  useEffect(() => {
    const element = popover.current;
    if (!element) return;
    const opening = (event: Event) => {
      if ((event as ToggleEvent).newState !== 'open') return;
      changed.current(true);
    };
    const toggled = (event: Event) => {
      if ((event as ToggleEvent).newState === 'open') return;
      changed.current(false);
      const focused = document.activeElement;
      if (!focused || focused === document.body || element.contains(focused)) chip.current?.focus();
    };
    element.addEventListener('beforetoggle', opening);
    element.addEventListener('toggle', toggled);
    return () => {
      element.removeEventListener('beforetoggle', opening);
      element.removeEventListener('toggle', toggled);
    };
  }, []);
}

/**
 * While `open`: keeps the popover by its chip (scrolling, resizing, the content growing as it
 * loads) and puts the focus on its first control once there is one.
 */
function useFollowChip(open: boolean, popover: RefObject<HTMLDivElement | null>, chip: RefObject<HTMLButtonElement | null>) {
  // The size observer reports before the first paint.
  useLayoutEffect(() => {
    const element = popover.current;
    if (!open || !element) return;
    // Once: later the person may Shift+Tab back to the chip and stay there.
    let focusMoved = false;
    const follow = () => {
      if (chip.current) place(element, chip.current);
      // (Safari does not focus a clicked button: then the focus is on the page's body.)
      const focused = document.activeElement;
      if (!focusMoved && element.matches(':popover-open') && (focused === chip.current || !focused || focused === document.body)) {
        const first = element.querySelector<HTMLElement>(FOCUSABLE);
        first?.focus();
        focusMoved = first !== null;
      }
    };
    follow();
    const grown = new ResizeObserver(follow);
    grown.observe(element);
    window.addEventListener('resize', follow);
    window.addEventListener('scroll', follow, true);
    return () => {
      grown.disconnect();
      window.removeEventListener('resize', follow);
      window.removeEventListener('scroll', follow, true);
    };
  }, [open]);
}

/**
 * A chip that edits what it shows in place (docs "Web app", "Outline"): a button that opens a small
 * non-modal dialog anchored to it. The dialog is a native popover (`popover="auto"`, in the top
 * layer, so no scrolling box clips it): a click outside or Escape closes it, and the focus then
 * returns to the chip. Its content is rendered only while it is open (so a closed chip costs no
 * request); `content` receives `close`, which closes it and returns the focus to the chip.
 */
export function ChipPopover({
  label,
  title,
  className,
  children,
  content,
  onOpenChange,
}: {
  /** The chip's accessible name, with what it shows: "Assignees of “Buy milk”: @nina". */
  label: string;
  /** The dialog's accessible name: "Assignees of “Buy milk”". */
  title: string;
  className: string;
  /** What the chip shows. */
  children: ReactNode;
  content: (close: () => void) => ReactNode;
  onOpenChange?: (open: boolean) => void;
}) {
  const id = useId();
  const chip = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const openChange = useRef(onOpenChange);
  openChange.current = onOpenChange;

  usePopoverState(popover, chip, (next) => {
    if (next) flushSync(() => setOpen(true));
    else setOpen(false);
    openChange.current?.(next);
  });
  useFollowChip(open, popover, chip);

  const close = () => {
    if (popover.current?.matches(':popover-open')) popover.current.hidePopover();
  };
  return (
    <>
      <button
        ref={chip}
        type="button"
        className={className}
        aria-label={label}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={id}
        popoverTarget={id}
      >
        {children}
      </button>
      {createPortal(
        <div
          ref={popover}
          id={id}
          popover="auto"
          role="dialog"
          aria-label={title}
          tabIndex={-1}
          className="chip-popover"
          // The outline's own keys (undo, selection) and clicks stop here: React passes a portal's
          // events up to the row.
          onKeyDown={(e) => e.stopPropagation()}
          onMouseDown={(e) => e.stopPropagation()}
        >
          {open && content(close)}
        </div>,
        document.body,
      )}
    </>
  );
}
