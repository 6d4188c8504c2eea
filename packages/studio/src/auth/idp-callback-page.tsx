import type { LoginOutcome } from '@vellum/client';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { client, deviceId } from '../api/client';
import { ErrorMessage } from '../ui/error-message';
import { AuthLayout } from './auth-layout';
import { IDP_MODE_KEY } from './idp-mode';
import { establishSession } from './session';
import { SignInFlow } from './sign-in-flow';

/**
 * The page the identity provider sends the browser back to (`security.oauth.redirectUri`,
 * docs/api.md, "Identity provider"): the code and state go to the server once; a second factor
 * may still follow.
 */
export default function IdpCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<LoginOutcome>();
  const [error, setError] = useState<unknown>();
  const sent = useRef(false);
  const finish = async () => {
    await establishSession();
    await navigate('/', { replace: true });
  };

  useEffect(() => {
    // The state is single-use: send it once, even if the effect runs again.
    if (sent.current) return;
    sent.current = true;
    const code = params.get('code');
    const state = params.get('state');
    const mode = sessionStorage.getItem(IDP_MODE_KEY) === 'link' ? 'link' : 'login';
    sessionStorage.removeItem(IDP_MODE_KEY);
    if (!code || !state) {
      setError(new Error(params.get('error_description') ?? params.get('error') ?? 'The provider sent no code.'));
      return;
    }
    client.identityProvider
      .complete({ code, state, mode, deviceId: deviceId() })
      .then(async (o) => {
        if (o.kind === 'linked') return navigate('/account', { replace: true });
        if (o.kind === 'signedIn') return finish();
        setOutcome(o);
      })
      .catch(setError);
  }, []);

  return (
    <AuthLayout title="Signing in">
      {!error && !outcome && <p role="status">Completing the sign-in…</p>}
      {error ? (
        <>
          <ErrorMessage error={error} />
          <Link to="/sign-in">Back to sign-in</Link>
        </>
      ) : null}
      {outcome && <SignInFlow initial={outcome} onSignedIn={finish} />}
    </AuthLayout>
  );
}
