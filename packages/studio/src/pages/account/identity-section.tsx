import { useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../../api/client';
import { IDP_MODE_KEY } from '../../auth/idp-mode';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorMessage } from '../../ui/error-message';
import { useAction } from '../../ui/use-action';

/**
 * The linked identity-provider account (docs/api.md, "Identity provider"), only when one is
 * configured. Linking leaves for the provider and comes back to `/studio/auth/idp/callback`.
 */
export function IdentitySection() {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: ['idp-status'], queryFn: () => client.identityProvider.status() });
  const { busy, error, run } = useAction();
  if (!status.data?.enabled) return null;
  const provider = status.data.providers[0]?.name ?? 'the identity provider';
  return (
    <section className="panel stack" aria-labelledby="idp-title">
      <h2 id="idp-title">Sign-in with {provider}</h2>
      {status.data.linked ? (
        <>
          <p>Your account is linked: you can sign in with {provider}.</p>
          <ConfirmDialog
            title={`Unlink ${provider}?`}
            confirmLabel="Unlink"
            trigger={<button type="button">Unlink {provider}</button>}
            onConfirm={async () => {
              await client.identityProvider.unlink();
              await queryClient.invalidateQueries({ queryKey: ['idp-status'] });
            }}
          >
            <p>You will sign in with your password (or a passkey) only.</p>
          </ConfirmDialog>
        </>
      ) : (
        <>
          <p>Link your account to sign in with {provider}.</p>
          <div className="row">
            <button
              type="button"
              disabled={busy}
              onClick={() =>
                void run(async () => {
                  const { authorizationUrl } = await client.identityProvider.start('link');
                  // The callback page completes a link, not a sign-in, when it finds this.
                  sessionStorage.setItem(IDP_MODE_KEY, 'link');
                  window.location.assign(authorizationUrl);
                })
              }
            >
              Link {provider}
            </button>
          </div>
        </>
      )}
      <ErrorMessage error={error} />
    </section>
  );
}
