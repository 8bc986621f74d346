import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

/**
 * A modal question with a confirming and a cancelling button (the browser's own `<dialog>`, so
 * the page behind it is inert and Escape cancels). Shown while mounted; `onCancel` is called for
 * Cancel, Escape and a click on the backdrop. The cancelling button has the focus at first, so an
 * Enter pressed by habit does not confirm a destructive action.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  danger = false,
  onConfirm,
  onCancel,
}: {
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    cancel.current?.focus();
    return () => d?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      onClick={(event) => {
        if (event.target === dialog.current) onCancel();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
      <div className="row confirm-dialog-buttons">
        <button ref={cancel} type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className={danger ? 'danger' : undefined} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

/** What {@link useConfirmation} asks: the dialog's title, its sentence and the destructive action. */
export interface Confirmation {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
}

/**
 * A destructive action asked about first: `ask(confirmation)` shows a {@link ConfirmDialog} (danger
 * style), which calls `onConfirm` on confirming and closes either way. Render `dialog` once in the
 * component (it is null while nothing is asked).
 */
export function useConfirmation(): { ask: (confirmation: Confirmation) => void; dialog: ReactNode } {
  const [asked, setAsked] = useState<Confirmation | null>(null);
  const dialog = asked && (
    <ConfirmDialog
      title={asked.title}
      confirmLabel={asked.confirmLabel}
      danger
      onCancel={() => setAsked(null)}
      onConfirm={() => {
        setAsked(null);
        asked.onConfirm();
      }}
    >
      <p>{asked.body}</p>
    </ConfirmDialog>
  );
  return { ask: setAsked, dialog };
}
