import { IDP_MODE_KEY } from '../../auth/idp-mode';
import { useIdentityProviderStatus, useStartIdentityLink, useUnlinkIdentityProvider } from '../../queries/account';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorMessage } from '../../ui/error-message';

/**
 * The linked identity-provider account (docs/api.md, "Identity provider"), only when one is
 * configured. Linking leaves for the provider and comes back to `/studio/auth/idp/callback`.
 */
export function IdentitySection() {
  const status = useIdentityProviderStatus();
  const unlink = useUnlinkIdentityProvider();
  const link = useStartIdentityLink();
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
            onConfirm={() => unlink.mutateAsync()}
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
              disabled={link.isPending}
              onClick={() =>
                link.mutate(undefined, {
                  onSuccess: ({ authorizationUrl }) => {
                    // The callback page completes a link, not a sign-in, when it finds this.
                    sessionStorage.setItem(IDP_MODE_KEY, 'link');
                    window.location.assign(authorizationUrl);
                  },
                })
              }
            >
              Link {provider}
            </button>
          </div>
        </>
      )}
      <ErrorMessage error={link.error} />
    </section>
  );
}
