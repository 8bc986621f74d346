import { useState } from 'react';

/**
 * A delete that takes two clicks: "Delete" (labelled `label` for assistive technology), then
 * "Delete <name>" to confirm or "Keep" to back out.
 */
export function ConfirmDelete({ name, label, onConfirm }: { name: string; label: string; onConfirm: () => void }) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <button type="button" className="secondary" onClick={() => setConfirming(true)} aria-label={label}>
        Delete
      </button>
    );
  }
  return (
    <>
      <button
        type="button"
        className="danger"
        onClick={() => {
          setConfirming(false);
          onConfirm();
        }}
      >
        Delete {name}
      </button>{' '}
      <button type="button" className="secondary" onClick={() => setConfirming(false)}>
        Keep
      </button>
    </>
  );
}
