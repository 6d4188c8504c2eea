import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useState } from 'react';
import { client } from '../api/client';
import { ErrorMessage } from '../ui/error-message';
import { useAction } from '../ui/use-action';

/** Registers a passkey for the signed-in user (docs/api.md, "Passkeys"): the browser's ceremony, then its JSON to the server. */
export function AddPasskeyButton({ onAdded }: { onAdded?: () => void }) {
  const { busy, error, run } = useAction();
  const [done, setDone] = useState(false);
  const add = () =>
    run(async () => {
      const options = await client.passkeys.registrationOptions();
      const response = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
      await client.passkeys.register(response);
      setDone(true);
      onAdded?.();
    });
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
