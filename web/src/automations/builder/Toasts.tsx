import { useCallback, useEffect, useState } from 'react';
import './overlays.css';

/** A short message at the bottom of the screen, with an optional action (Undo). */
export interface Toast {
  id: number;
  message: string;
  action?: { label: string; run(): void };
}

/** How long a toast stays, in milliseconds. */
const TOAST_MS = 8000;

/** The toasts of a screen and a function to show one. */
export function useToasts(): { toasts: Toast[]; show(message: string, action?: Toast['action']): void; dismiss(id: number): void } {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const show = useCallback((message: string, action?: Toast['action']) => {
    setToasts((t) => [...t.slice(-2), { id: Date.now() + Math.random(), message, ...(action ? { action } : {}) }]);
  }, []);
  return { toasts, show, dismiss };
}

function ToastItem({ toast, dismiss }: { toast: Toast; dismiss(id: number): void }) {
  useEffect(() => {
    const timer = setTimeout(() => dismiss(toast.id), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast.id, dismiss]);
  return (
    <div className="toast">
      <span>{toast.message}</span>
      {toast.action && (
        <button
          type="button"
          className="link"
          onClick={() => {
            toast.action!.run();
            dismiss(toast.id);
          }}
        >
          {toast.action.label}
        </button>
      )}
      <button type="button" className="link" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
        ×
      </button>
    </div>
  );
}

/** The toasts region (a polite live region, so screen readers hear them). */
export function Toasts({ toasts, dismiss }: { toasts: Toast[]; dismiss(id: number): void }) {
  return (
    <div className="toasts" role="status" aria-live="polite" aria-label="Notifications">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} dismiss={dismiss} />
      ))}
    </div>
  );
}
