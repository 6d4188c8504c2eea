import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { CloseIcon } from './icons';

/**
 * Toasts (docs/studio.md, "Design system"): a short message that an action succeeded, read out
 * by screen readers from one polite live region and gone after a while. Hovering or focusing a
 * toast keeps it; its close button removes it at once. Errors are not toasts: they stay where
 * they happened (`role="alert"`).
 */
interface Toast {
  id: number;
  message: string;
}

const ShowToast = createContext<(message: string) => void>(() => {});

/** Long enough to be read twice; paused while the pointer or focus is on the toasts. */
const SHOWN_MS = 8000;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [held, setHeld] = useState(false);
  const next = useRef(0);
  const show = useCallback((message: string) => {
    setToasts((all) => [...all.slice(-2), { id: ++next.current, message }]);
  }, []);
  const dismiss = (id: number) => setToasts((all) => all.filter((t) => t.id !== id));
  useEffect(() => {
    if (held || toasts.length === 0) return;
    const oldest = toasts[0].id;
    const timer = setTimeout(() => setToasts((all) => all.filter((t) => t.id !== oldest)), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [toasts, held]);
  return (
    <ShowToast.Provider value={show}>
      {children}
      <div
        className="toasts"
        role="status"
        aria-live="polite"
        onMouseEnter={() => setHeld(true)}
        onMouseLeave={() => setHeld(false)}
        onFocus={() => setHeld(true)}
        onBlur={() => setHeld(false)}
      >
        {toasts.map((t) => (
          <div key={t.id} className="toast">
            <span>{t.message}</span>
            <button type="button" className="quiet icon-button" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
              <CloseIcon />
            </button>
          </div>
        ))}
      </div>
    </ShowToast.Provider>
  );
}

/** `toast(message)`: shows a message in the layout's toasts (a no-op outside the provider). */
export function useToast(): (message: string) => void {
  return useContext(ShowToast);
}
