import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

/** One toast: a short message, optionally with one action ("Undo"). */
export interface Toast {
  /** The message shown. */
  message: string;
  /** 'error' shows it in the danger colour. */
  tone?: 'info' | 'error';
  /** A button in the toast, e.g. { label: 'Undo', run: … }. */
  action?: { label: string; run: () => void };
  /** How long it stays, in ms (default 5,000). */
  durationMs?: number;
  /**
   * Toasts with the same key replace one another: a newer one takes the older one's place, so an
   * "Undo" that no longer applies (the edit was undone or restored elsewhere) does not stay on screen.
   */
  key?: string;
}

type ShownToast = Toast & { id: number };

const ToastContext = createContext<((toast: Toast) => void) | null>(null);

function ToastItem({ toast, dismiss }: { toast: ShownToast; dismiss: (id: number) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => dismiss(toast.id), toast.durationMs ?? 5000);
    return () => clearTimeout(timer);
  }, [toast, dismiss]);
  return (
    <div className={toast.tone === 'error' ? 'toast toast-error' : 'toast'} role={toast.tone === 'error' ? 'alert' : 'status'}>
      <span>{toast.message}</span>
      {toast.action && (
        <button
          type="button"
          onClick={() => {
            toast.action!.run();
            dismiss(toast.id);
          }}
        >
          {toast.action.label}
        </button>
      )}
      <button type="button" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
        ×
      </button>
    </div>
  );
}

/** Shows the toasts raised with {@link useToast} in the bottom corner (wrap the app in it once). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ShownToast[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const show = useCallback((toast: Toast) => {
    const id = nextId.current++;
    setToasts((list) => [...list.filter((t) => toast.key === undefined || t.key !== toast.key).slice(-3), { ...toast, id }]);
  }, []);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" aria-live="polite">
        {toasts.map((t) => (
          <ToastItem key={t.id} toast={t} dismiss={dismiss} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** Returns `show(toast)`, which puts a {@link Toast} on screen. Needs a {@link ToastProvider} above. */
export function useToast(): (toast: Toast) => void {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast needs a <ToastProvider> above it');
  return show;
}
