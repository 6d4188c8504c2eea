import { VellumApiError } from '@vellum/client';
import { useOAuthGrants, useRevokeGrant } from '../../queries/account';
import { useStudioConfig } from '../../queries/config';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorMessage } from '../../ui/error-message';
import { when } from '../../ui/when';

/**
 * Applications the user approved (`GET /auth/grants`, docs/oauth2.md): revoking one ends its tokens.
 * Asked only when `GET /config/studio` says the authorization server is on (`features.oauth2`):
 * otherwise the answer is a 501 the browser would log on every visit.
 */
export function GrantsSection() {
  const oauth2 = useStudioConfig().data?.features.oauth2 === true;
  const grants = useOAuthGrants(oauth2);
  const revoke = useRevokeGrant();
  // Without the authorization server (`oauth2.enabled` off) there are no grants to show.
  if (!oauth2 || grants.isPending || (grants.error instanceof VellumApiError && grants.error.status === 501)) return null;
  return (
    <section className="panel stack" aria-labelledby="grants-title">
      <h2 id="grants-title">Connected applications</h2>
      <ErrorMessage error={grants.error} />
      {grants.data && grants.data.length === 0 && <p className="muted">No application has access to your account.</p>}
      {grants.data && grants.data.length > 0 && (
        <ul className="stack">
          {grants.data.map((g) => (
            <li key={g.id} className="row">
              <strong>{g.client.name}</strong>
              <span className="muted">
                {g.scopes.join(' ')} · approved {when(g.createdAt)} · last used {when(g.lastUsedAt)}
              </span>
              <ConfirmDialog
                title={`Revoke access of ${g.client.name}?`}
                confirmLabel="Revoke access"
                trigger={
                  <button type="button" aria-label={`Revoke ${g.client.name}`}>
                    Revoke
                  </button>
                }
                onConfirm={() => revoke.mutateAsync(g.id)}
              >
                <p>Its tokens stop working at once; it must ask you again to get access.</p>
              </ConfirmDialog>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
