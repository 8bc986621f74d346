import { useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { ConnectionForm } from './ConnectionForm';
import { usePieceAuth } from './api';

/**
 * "New connection" as a modal (the browser's `<dialog>`; Escape or Cancel closes it): the
 * piece's connection form, in a portal on the page's body; `onCreated` gets the new connection.
 */
export function NewConnectionDialog({
  workspaceId,
  piece,
  onCreated,
  onClose,
}: {
  workspaceId: string;
  piece: string;
  onCreated: (connection: { id: string; name: string }) => void;
  onClose: () => void;
}) {
  const info = usePieceAuth(piece);
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  // In a portal: the builder is a form, and a form may not hold another.
  return createPortal(
    <dialog
      ref={dialog}
      className="confirm-dialog connection-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>New {info.data?.displayName ?? piece} connection</h2>
      <ConnectionForm workspaceId={workspaceId} piece={piece} onCreated={onCreated} />
      <div className="row confirm-dialog-buttons">
        <button type="button" className="secondary" onClick={onClose}>
          Cancel
        </button>
      </div>
    </dialog>,
    document.body,
  );
}
