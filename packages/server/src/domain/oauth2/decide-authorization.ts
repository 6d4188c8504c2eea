import { errors } from '../../errors.js';
import { deleteAuthCodesExpiredBefore, insertAuthCode } from '../../storage/oauth2/oauth-auth-codes-store.js';
import type { Principal } from '../access/principal.js';
import { recordAudit } from '../audit/record-audit.js';
import { AUTH_CODE_PREFIX, randomBase62, sha256Hex } from '../identity/secrets.js';
import type { Services } from '../services.js';
import { authorizationResponseUrl, checkAuthorizationRequest, type AuthorizationParams } from './authorization-request.js';
import { requireOAuth2 } from './oauth2-gate.js';
import { formatScope, narrowScopes } from './scopes.js';
import { requireSignedInUser } from './signed-in-user.js';

/** RFC 6749 §4.1.2 recommends at most 10 minutes; the code only has to cross one redirect. */
export const AUTH_CODE_TTL_MS = 60_000;
/** Used codes are kept this long past expiry, so a late second use still revokes its grant (RFC 6749 §4.1.2). */
const KEEP_EXPIRED_MS = 86_400_000;

export interface AuthorizationDecision {
  action: 'approve' | 'deny';
  /** The approver's narrowing of the requested scopes: a non-empty subset, else 400 (ignored on deny). */
  scopes?: readonly string[];
}

/**
 * `POST /auth/authorize`: the user's answer on the consent page.
 * 1. Only a signed-in user decides; the server must be on.
 * 2. The request is checked again (it came back through the browser): client and redirect URI
 *    problems throw 400; the others answer with an error response URL.
 * 3. Deny → `error=access_denied` (RFC 6749 §4.1.2.1).
 * 4. Approve → a code (`vac_` + 43 base62, SHA-256 only, 60 s, single use) bound to the client, the
 *    redirect URI, the scopes, the PKCE challenge and the user; the response URL carries it.
 */
export async function decideAuthorization(
  svc: Services,
  actor: Principal,
  params: AuthorizationParams,
  decision: AuthorizationDecision,
): Promise<{ redirectUrl: string }> {
  // 1. Who decides.
  requireOAuth2(svc);
  const userId = requireSignedInUser(actor);

  // 2. The request.
  const checked = checkAuthorizationRequest(svc, params);
  if (!checked.ok) return { redirectUrl: checked.redirectUrl };
  const { client, redirectUri, state, codeChallenge } = checked.request;

  // 3. A refusal.
  if (decision.action === 'deny')
    return {
      redirectUrl: authorizationResponseUrl(svc, redirectUri, {
        error: 'access_denied',
        error_description: 'The user denied the request',
        state,
      }),
    };

  // 4. The code.
  const scopes = narrowScopes(checked.request.scopes, decision.scopes);
  if (scopes.length === 0)
    throw errors.invalidInput('Approve at least one scope, or deny the request', [{ field: 'scopes', message: 'empty' }]);
  const code = AUTH_CODE_PREFIX + randomBase62(43);
  const now = svc.now();
  await deleteAuthCodesExpiredBefore(svc.database, new Date(now.getTime() - KEEP_EXPIRED_MS).toISOString());
  await insertAuthCode(svc.database, {
    hash: sha256Hex(code),
    clientId: client.id,
    userId,
    redirectUri,
    scope: formatScope(scopes),
    codeChallenge,
    grantId: null,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + AUTH_CODE_TTL_MS).toISOString(),
    usedAt: null,
  });
  await recordAudit(svc, 'oauthGrant', { actor, target: userId, details: { clientId: client.id, scopes, flow: 'authorization_code' } });
  return { redirectUrl: authorizationResponseUrl(svc, redirectUri, { code, state }) };
}
