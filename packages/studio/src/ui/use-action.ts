import { useState } from 'react';

/**
 * One button's or form's call: `busy` while it runs (to disable what would start it again), its
 * error kept for `<ErrorMessage>`. `handle` may take an error itself and return true, then it is
 * not kept (an expired sign-in step starts the sign-in again instead). `run` never rejects (the
 * error is kept instead), so an event handler may start it unawaited: `void run(...)`.
 */
export function useAction(handle?: (err: unknown) => boolean) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await fn();
    } catch (err) {
      if (!handle?.(err)) setError(err);
    } finally {
      setBusy(false);
    }
  };
  /** Forgets the last error (a dialog opened again starts clean). */
  const reset = () => setError(undefined);
  return { busy, error, run, reset };
}
