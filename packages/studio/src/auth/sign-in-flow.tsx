import type { LoginOutcome, MfaMethod } from '@vellum/client';
import { useState } from 'react';
import { client, deviceId } from '../api/client';
import { ErrorMessage } from '../ui/error-message';
import { MfaSetupStep } from './mfa-setup-step';
import { MfaStep } from './mfa-step';
import { PasswordStep } from './password-step';

type Step =
  | { kind: 'password' }
  | { kind: 'mfa'; mfaToken: string; methods: MfaMethod[] }
  | { kind: 'setup'; setupToken: string; methods: MfaMethod[] };

function stepOf(o: LoginOutcome | undefined): Step {
  if (o?.kind === 'mfaRequired') return { kind: 'mfa', mfaToken: o.mfaToken, methods: o.methods };
  if (o?.kind === 'mfaSetupRequired') return { kind: 'setup', setupToken: o.setupToken, methods: o.methods };
  return { kind: 'password' };
}

/**
 * Signing in step by step, as the server answers (docs/authentication.md): the password (or a
 * passkey, or the identity provider), then a second factor or the setup of a first one.
 * `onSignedIn` runs once the client holds tokens.
 */
export function SignInFlow({ onSignedIn, initial }: { onSignedIn: () => Promise<void>; initial?: LoginOutcome }) {
  const [step, setStep] = useState<Step>(() => stepOf(initial));
  const [error, setError] = useState<unknown>();

  const outcome = async (o: LoginOutcome) => {
    if (o.kind === 'signedIn') return onSignedIn();
    setStep(stepOf(o));
  };
  const restart = (err?: unknown) => {
    setError(err);
    setStep({ kind: 'password' });
  };

  return (
    <>
      <ErrorMessage error={error} />
      {step.kind === 'password' && (
        <PasswordStep
          onOutcome={(o) => {
            setError(undefined);
            return outcome(o);
          }}
          onPasskey={onSignedIn}
          signIn={(username, password) => client.login(username, password, { deviceId: deviceId() })}
        />
      )}
      {step.kind === 'mfa' && <MfaStep mfaToken={step.mfaToken} methods={step.methods} onSignedIn={onSignedIn} onRestart={restart} />}
      {step.kind === 'setup' && (
        <MfaSetupStep setupToken={step.setupToken} methods={step.methods} onSignedIn={onSignedIn} onRestart={restart} />
      )}
    </>
  );
}
