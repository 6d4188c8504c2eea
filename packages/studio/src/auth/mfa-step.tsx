import type { MfaMethod } from '@vellum/client';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { client, deviceId } from '../api/client';
import { ErrorMessage } from '../ui/error-message';
import { isExpiredStep, restartWhenExpired } from './restart-when-expired';

type Choice = MfaMethod | 'backup';
const LABELS: Record<Choice, string> = { totp: 'Authenticator app', email: 'Emailed code', backup: 'Backup code' };
const CODE_LABELS: Record<Choice, string> = {
  totp: 'Code from your authenticator app',
  email: 'Code from the email',
  backup: 'One of your backup codes',
};

/** The second factor (docs/authentication.md, "2. The second factor"): a TOTP, emailed or backup code, and "trust this device". */
export function MfaStep({
  mfaToken,
  methods,
  onSignedIn,
  onRestart,
}: {
  mfaToken: string;
  methods: MfaMethod[];
  onSignedIn: () => Promise<void>;
  onRestart: (err?: unknown) => void;
}) {
  const [method, setMethod] = useState<Choice>(methods[0] ?? 'backup');
  // With email as the only method the login has mailed a code already (docs/authentication.md).
  const [sent, setSent] = useState(methods.length === 1 && methods[0] === 'email');
  const step = useMutation({ mutationFn: (run: () => Promise<unknown>) => run(), onError: restartWhenExpired(onRestart) });
  const busy = step.isPending;
  const error = isExpiredStep(step.error) ? null : step.error;
  const choices: Choice[] = [...methods, 'backup'];

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const code = String(form.get('code')).trim();
    const trustDevice = form.get('trust') === 'on';
    step.mutate(async () => {
      if (method === 'backup') await client.auth.verifyBackupCode(mfaToken, code);
      else
        await client.auth.verifyMfa({
          mfaToken,
          code,
          method,
          trustDevice,
          deviceId: deviceId(),
          deviceName: navigator.userAgent.slice(0, 100),
        });
      await onSignedIn();
    });
  };
  const send = () =>
    step.mutate(async () => {
      await client.auth.sendEmailCode(mfaToken);
      setSent(true);
    });

  return (
    <form onSubmit={submit} className="stack" aria-label="Second factor">
      <p>Your account has a second factor.</p>
      {choices.length > 1 && (
        <fieldset>
          <legend>Method</legend>
          {choices.map((c) => (
            <label key={c} className="inline">
              <input type="radio" name="method" value={c} checked={method === c} onChange={() => setMethod(c)} />
              {LABELS[c]}
            </label>
          ))}
        </fieldset>
      )}
      {method === 'email' && (
        <button type="button" onClick={() => void send()} disabled={busy}>
          {sent ? 'Send the code again' : 'Email me a code'}
        </button>
      )}
      {sent && method === 'email' && <p role="status">A code was sent to your email address.</p>}
      <label>
        {CODE_LABELS[method]}
        <input
          name="code"
          type="text"
          inputMode={method === 'backup' ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          required
          autoFocus
        />
      </label>
      {method !== 'backup' && (
        <label className="inline">
          <input type="checkbox" name="trust" /> Trust this device (no code asked here for a while)
        </label>
      )}
      <button className="primary" type="submit" disabled={busy}>
        Verify
      </button>
      <ErrorMessage error={error} />
    </form>
  );
}
