import type { MfaMethod, TotpSetup } from '@vellum/client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { client } from '../../api/client';
import { BackupCodes } from '../../auth/backup-codes';
import { ErrorMessage } from '../../ui/error-message';
import { useAction } from '../../ui/use-action';

const NAMES: Record<MfaMethod, string> = { totp: 'Authenticator app', email: 'Email codes' };

/**
 * Second factors (docs/api.md, "Multi-factor authentication"): set up an authenticator app (QR
 * code) or email codes, disable one with the password, and regenerate the backup codes (shown
 * once, with copy and download).
 */
export function MfaSection() {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: ['mfa-status'], queryFn: () => client.mfa.status() });
  const { busy, error, run } = useAction();
  const [setup, setSetup] = useState<{ method: MfaMethod; totp?: TotpSetup }>();
  const [codes, setCodes] = useState<string[]>();
  const [disabling, setDisabling] = useState<MfaMethod | 'backup'>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['mfa-status'] });

  const start = (method: MfaMethod) =>
    run(async () => {
      setCodes(undefined);
      if (method === 'totp') setSetup({ method, totp: await client.mfa.setupTotp() });
      else {
        await client.mfa.setupEmail();
        setSetup({ method });
      }
    });
  const confirm = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const code = String(new FormData(e.currentTarget).get('code')).trim();
    void run(async () => {
      const done = setup?.method === 'totp' ? await client.mfa.confirmTotp(code) : await client.mfa.confirmEmail(code);
      setSetup(undefined);
      if (done.backupCodes?.length) setCodes(done.backupCodes);
      await refresh();
    });
  };
  const withPassword = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const password = String(new FormData(e.currentTarget).get('password'));
    const what = disabling;
    void run(async () => {
      if (what === 'backup') setCodes(await client.mfa.regenerateBackupCodes(password));
      else if (what) await client.mfa.disable(what, password);
      setDisabling(undefined);
      await refresh();
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
                <button type="button" onClick={() => void start(m)} disabled={busy || !!setup}>
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
