import { useState } from 'react';

/** One button's call: busy while it runs, its error kept to show. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await fn();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');
