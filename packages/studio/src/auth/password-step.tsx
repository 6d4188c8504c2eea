import type { LoginOutcome } from '@vellum/client';
import { browserSupportsWebAuthn, startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { client, deviceId } from '../api/client';
import { useIdentityProviderStatus, usePasskeyStatus } from '../queries/account';
import { ErrorMessage } from '../ui/error-message';
import { IDP_MODE_KEY } from './idp-mode';

/** The first factor: username (or email) and password; a passkey; the identity provider when configured. */
export function PasswordStep({
  signIn,
  onOutcome,
  onPasskey,
}: {
  signIn: (username: string, password: string) => Promise<LoginOutcome>;
  onOutcome: (o: LoginOutcome) => Promise<void>;
  onPasskey: () => Promise<void>;
}) {
  // The three ways in share one busy state and one error: a new try forgets the last one's.
  const step = useMutation({ mutationFn: (run: () => Promise<unknown>) => run() });
  const { isPending: busy, error } = step;
  const passkeys = usePasskeyStatus({ keep: true });
  const idp = useIdentityProviderStatus({ keep: true });

  const offerPasskey = passkeys.data?.enabled === true && browserSupportsWebAuthn();

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    step.mutate(async () => onOutcome(await signIn(String(form.get('username')), String(form.get('password')))));
  };
  const passkey = () =>
    step.mutate(async () => {
      const options = await client.passkeys.loginOptions();
      // The options are the server's WebAuthn JSON, handed to the browser unchanged.
      const response = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
      await client.passkeys.login(response, deviceId());
      await onPasskey();
    });
  const provider = () =>
    step.mutate(async () => {
      sessionStorage.removeItem(IDP_MODE_KEY);
      const { authorizationUrl } = await client.identityProvider.start('login');
      location.assign(authorizationUrl);
    });

  return (
    <>
      <form onSubmit={submit} className="stack" aria-label="Sign in">
        <label>
          Username or email
          <input name="username" type="text" autoComplete="username webauthn" required autoFocus />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button className="primary" type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <ErrorMessage error={error} />
      {(offerPasskey || idp.data?.enabled) && (
        <div className="stack alternatives">
          <p className="muted">Or</p>
          {offerPasskey && (
            <button type="button" onClick={() => void passkey()} disabled={busy}>
              Sign in with a passkey
            </button>
          )}
          {idp.data?.enabled &&
            idp.data.providers.map((p) => (
              <button key={p.id} type="button" onClick={() => void provider()} disabled={busy}>
                Sign in with {p.name}
              </button>
            ))}
        </div>
      )}
      <p>
        <Link to="/reset-password">Forgot your password?</Link>
      </p>
    </>
  );
}
