import type { MfaMethod, TotpSetup } from '@vellum/client';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { client } from '../api/client';
import { ErrorMessage } from '../ui/error-message';
import { BackupCodes } from './backup-codes';
import { isExpiredStep, restartWhenExpired } from './restart-when-expired';

/**
 * The first method, set up during sign-in when the instance requires MFA
 * (docs/authentication.md, "Setting up a first method"): the QR code and secret, or an emailed
 * code; confirming signs in, and the backup codes are shown once.
 */
export function MfaSetupStep({
  setupToken,
  methods,
  onSignedIn,
  onRestart,
}: {
  setupToken: string;
  methods: MfaMethod[];
  onSignedIn: () => Promise<void>;
  onRestart: (err?: unknown) => void;
}) {
  const [method, setMethod] = useState<MfaMethod | undefined>();
  const [totp, setTotp] = useState<TotpSetup>();
  const [backupCodes, setBackupCodes] = useState<string[]>();
  const step = useMutation({ mutationFn: (run: () => Promise<unknown>) => run(), onError: restartWhenExpired(onRestart) });
  const busy = step.isPending;
  const error = isExpiredStep(step.error) ? null : step.error;

  const start = (m: MfaMethod) =>
    step.mutate(async () => {
      if (m === 'totp') setTotp(await client.mfa.setupTotp({ setupToken }));
      else await client.mfa.setupEmail({ setupToken });
      setMethod(m);
    });
  const confirm = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const code = String(new FormData(e.currentTarget).get('code')).trim();
    step.mutate(async () => {
      const done =
        method === 'totp' ? await client.mfa.confirmTotp(code, { setupToken }) : await client.mfa.confirmEmail(code, { setupToken });
      if (done.backupCodes?.length) setBackupCodes(done.backupCodes);
      else await onSignedIn();
    });
  };

  if (backupCodes)
    return (
      <div className="stack">
        <BackupCodes codes={backupCodes} />
        <button className="primary" type="button" onClick={() => step.mutate(onSignedIn)} disabled={busy}>
          I have saved them: continue
        </button>
        <ErrorMessage error={error} />
      </div>
    );

  return (
    <div className="stack">
      <p>This site requires a second factor. Set one up to continue.</p>
      {!method && (
        <div className="row">
          {methods.includes('totp') && (
            <button type="button" className="primary" onClick={() => void start('totp')} disabled={busy}>
              Set up an authenticator app
            </button>
          )}
          {methods.includes('email') && (
            <button type="button" onClick={() => void start('email')} disabled={busy}>
              Use codes sent by email
            </button>
          )}
        </div>
      )}
      {method === 'totp' && totp && (
        <div className="stack">
          <p>Scan this QR code with your authenticator app, or enter the secret by hand.</p>
          <img className="qr" src={totp.qrCode} alt="QR code for your authenticator app" width={200} height={200} />
          <p>
            Secret: <code data-testid="totp-secret">{totp.secret}</code>
          </p>
        </div>
      )}
      {method === 'email' && <p role="status">A code was sent to your email address.</p>}
      {method && (
        <form onSubmit={confirm} className="stack" aria-label="Confirm the second factor">
          <label>
            Code
            <input name="code" type="text" inputMode="numeric" autoComplete="one-time-code" required autoFocus />
          </label>
          <button className="primary" type="submit" disabled={busy}>
            Confirm
          </button>
        </form>
      )}
      <ErrorMessage error={error} />
    </div>
  );
}
