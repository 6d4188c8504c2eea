import { useState } from 'react';
import { useAddPasskey } from '../queries/account';
import { ErrorMessage } from '../ui/error-message';

/** Registers a passkey for the signed-in user (docs/api.md, "Passkeys"): the browser's ceremony, then its JSON to the server. */
export function AddPasskeyButton() {
  const register = useAddPasskey();
  const { isPending: busy, error } = register;
  const [done, setDone] = useState(false);
  const add = () => register.mutate(undefined, { onSuccess: () => setDone(true) });
  return (
    <div className="stack">
      <button type="button" onClick={() => void add()} disabled={busy}>
        Add a passkey
      </button>
      {done && <p role="status">Passkey added.</p>}
      <ErrorMessage error={error} />
    </div>
  );
}
