import type { MfaMethod, TotpSetup } from '@vellum/client';
import { useState, type FormEvent } from 'react';
import { BackupCodes } from '../../auth/backup-codes';
import { useMfaStatus, useMfaStep } from '../../queries/account';
import { ErrorMessage } from '../../ui/error-message';

const NAMES: Record<MfaMethod, string> = { totp: 'Authenticator app', email: 'Email codes' };

/**
 * Second factors (docs/api.md, "Multi-factor authentication"): set up an authenticator app (QR
 * code) or email codes, disable one with the password, and regenerate the backup codes (shown
 * once, with copy and download).
 */
export function MfaSection() {
  const status = useMfaStatus();
  const step = useMfaStep();
  const { isPending: busy, error } = step;
  const [setup, setSetup] = useState<{ method: MfaMethod; totp?: TotpSetup }>();
  const [codes, setCodes] = useState<string[]>();
  const [disabling, setDisabling] = useState<MfaMethod | 'backup'>();

  const start = (method: MfaMethod) => {
    setCodes(undefined);
    step.mutate({ step: 'setup', method }, { onSuccess: ({ totp }) => setSetup({ method, totp }) });
  };
  const confirm = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const code = String(new FormData(e.currentTarget).get('code')).trim();
    if (!setup) return;
    step.mutate(
      { step: 'confirm', method: setup.method, code },
      {
        onSuccess: ({ enabled }) => {
          setSetup(undefined);
          if (enabled?.backupCodes?.length) setCodes(enabled.backupCodes);
        },
      },
    );
  };
  const withPassword = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const password = String(new FormData(e.currentTarget).get('password'));
    const what = disabling;
    if (!what) return;
    step.mutate(what === 'backup' ? { step: 'backup-codes', password } : { step: 'disable', method: what, password }, {
      onSuccess: ({ backupCodes }) => {
        if (backupCodes) setCodes(backupCodes);
        setDisabling(undefined);
      },
    });
  };

  const methods = status.data?.methods ?? [];
  return (
    <section className="panel stack" aria-labelledby="mfa-title">
      <h2 id="mfa-title">Two-factor authentication</h2>
      <ErrorMessage error={status.error} />
      {status.data && (
        <ul>
          {(['totp', 'email'] as const).map((m) => (
            <li key={m}>
              {NAMES[m]}: <strong>{methods.includes(m) ? 'on' : 'off'}</strong>{' '}
              {methods.includes(m) ? (
                <button type="button" onClick={() => setDisabling(m)} disabled={busy}>
                  Turn off {NAMES[m].toLowerCase()}
                </button>
              ) : (
                <button type="button" onClick={() => start(m)} disabled={busy || !!setup}>
                  Set up {NAMES[m].toLowerCase()}
                </button>
              )}
            </li>
          ))}
          {methods.length > 0 && (
            <li>
              Backup codes left: <strong>{status.data.backupCodesRemaining}</strong>{' '}
              <button type="button" onClick={() => setDisabling('backup')} disabled={busy}>
                New backup codes
              </button>
            </li>
          )}
        </ul>
      )}
      {setup && (
        <form className="stack" onSubmit={confirm} aria-label="Confirm the new method">
          {setup.totp ? (
            <>
              <p>Scan this QR code with your authenticator app, or enter the secret by hand, then type the code it shows.</p>
              <img className="qr" src={setup.totp.qrCode} alt="QR code for your authenticator app" width={200} height={200} />
              <p>
                Secret: <code data-testid="totp-secret">{setup.totp.secret}</code>
              </p>
            </>
          ) : (
            <p>We sent a code to your email address.</p>
          )}
          <label>
            Code
            <input type="text" name="code" required inputMode="numeric" autoComplete="one-time-code" />
          </label>
          <div className="row">
            <button type="submit" className="primary" disabled={busy}>
              Confirm
            </button>
            <button type="button" onClick={() => setSetup(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {disabling && (
        <form className="stack" onSubmit={withPassword} aria-label="Confirm with your password">
          <p>
            {disabling === 'backup'
              ? 'New backup codes replace the old ones, which stop working.'
              : `Turn off ${NAMES[disabling].toLowerCase()}?`}{' '}
            Confirm with your password.
          </p>
          <label>
            Your password
            <input type="password" name="password" required autoComplete="current-password" />
          </label>
          <div className="row">
            <button type="submit" className="primary" disabled={busy}>
              {disabling === 'backup' ? 'Make new backup codes' : 'Turn off'}
            </button>
            <button type="button" onClick={() => setDisabling(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <ErrorMessage error={error} />
      {codes && (
        <div className="stack">
          <BackupCodes codes={codes} />
          <button type="button" onClick={() => setCodes(undefined)}>
            I have saved them
          </button>
        </div>
      )}
    </section>
  );
}
