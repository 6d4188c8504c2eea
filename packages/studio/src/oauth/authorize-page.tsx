import type { AuthorizationParams } from '@vellum/client';
import { useSearchParams } from 'react-router';
import { AuthLayout } from '../auth/auth-layout';
import { useAuthorizationRequest, useDecideAuthorization } from '../queries/auth';
import { ErrorMessage } from '../ui/error-message';
import { Consent } from './consent';

/**
 * `/studio/auth/authorize` (RFC 6749 §4.1.1, docs/oauth2.md "The approval page"): the server
 * sends the browser here with the client's request; the user approves (possibly fewer scopes) or
 * denies, and the browser goes on to the `redirectUrl` the server answers.
 */
export default function AuthorizePage() {
  const [params] = useSearchParams();
  const request: AuthorizationParams = {
    clientId: params.get('client_id') ?? '',
    redirectUri: params.get('redirect_uri') ?? '',
    scope: params.get('scope') ?? undefined,
    state: params.get('state') ?? '',
    codeChallenge: params.get('code_challenge') ?? '',
  };
  const found = useAuthorizationRequest(request);
  const decide = useDecideAuthorization(request);
  return (
    <AuthLayout title="Authorize an application">
      <ErrorMessage error={found.error} />
      {found.isPending && <p role="status">Loading the request…</p>}
      {found.data && (
        <Consent
          clientName={found.data.client.name}
          scopes={found.data.scopes}
          onDecide={async (action, scopes) => {
            location.assign(await decide.mutateAsync({ action, scopes }));
          }}
        />
      )}
    </AuthLayout>
  );
}
