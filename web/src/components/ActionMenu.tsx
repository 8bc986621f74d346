import { Fragment, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Ellipsis } from 'lucide-react';

/** One entry of an {@link ActionMenu}. */
export interface MenuAction {
  /** The entry's text, also its accessible name. */
  label: string;
  /** Called after the menu has closed. */
  onSelect: () => void;
  /** An icon shown before the label (decorative). */
  icon?: ReactNode;
  /** Shown in the danger colour (a delete). */
  danger?: boolean;
  /** Shown but not selectable, with `title` saying why. */
  disabled?: boolean;
  title?: string;
  /** Starts a new group: a separator is drawn above the entry. */
  separated?: boolean;
}

/**
 * A "more actions" button and the menu it opens, after the WAI-ARIA menu button pattern: Enter,
 * Space or ↓ opens it on the first entry (↑ on the last); in the menu ↑/↓ move (wrapping), Home
 * and End jump, Enter or a click selects, Escape closes and gives the focus back to the button,
 * Tab or a click elsewhere closes it. Disabled entries are skipped. `label` names the button
 * (shown as its tooltip; the button itself shows an ellipsis icon).
 */
export function ActionMenu({ label, actions }: { label: string; actions: readonly MenuAction[] }) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();

  const items = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not(:disabled)') ?? [])];
  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) button.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const list = items();
    (open === 'last' ? list[list.length - 1] : list[0])?.focus();
    const outside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const onMenuKey = (event: KeyboardEvent) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    const focus = (index: number) => list[(index + list.length) % list.length]?.focus();
    if (event.key === 'ArrowDown') focus(at + 1);
    else if (event.key === 'ArrowUp') focus(at - 1);
    else if (event.key === 'Home') focus(0);
    else if (event.key === 'End') focus(list.length - 1);
    else if (event.key === 'Escape') close(true);
    else if (event.key === 'Tab') close(false);
    else return;
    if (event.key !== 'Tab') event.preventDefault();
  };

  return (
    <div className="action-menu">
      <button
        ref={button}
        type="button"
        className="secondary icon-only"
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={open !== false}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen(open ? false : 'first')}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setOpen(event.key === 'ArrowUp' ? 'last' : 'first');
          }
        }}
      >
        <Ellipsis className="icon" aria-hidden="true" />
      </button>
      {open && (
        <div ref={menu} id={menuId} role="menu" aria-label={label} className="menu" onKeyDown={onMenuKey}>
          {actions.map((action) => (
            <Fragment key={action.label}>
              {action.separated && <div role="separator" className="menu-separator" />}
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={action.danger ? 'menu-item menu-item-danger' : 'menu-item'}
                disabled={action.disabled}
                title={action.title}
                onClick={() => {
                  close(true);
                  action.onSelect();
                }}
              >
                {action.icon}
                {action.label}
              </button>
            </Fragment>
          ))}
        </div>
      )}
    </div>
  );
}
