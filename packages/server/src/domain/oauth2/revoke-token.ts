import { findGrant, findOAuthRefreshToken, revokeGrant } from '../../storage/oauth2/oauth-grants-store.js';
import { errors } from '../../errors.js';
import type { Principal } from '../access/principal.js';
import { recordAudit } from '../audit/record-audit.js';
import { OAUTH_REFRESH_TOKEN_PREFIX, sha256Hex } from '../identity/secrets.js';
import type { Services } from '../services.js';
import { authenticateClient, type ClientCredentials, type OAuthClient } from './clients.js';
import { tokenAudience } from './grant-tokens.js';
import { isOAuthAccessToken, verifyOAuthAccessToken } from './oauth-access-token.js';
import { requireOAuth2 } from './oauth2-gate.js';

/**
 * `POST /auth/revoke` (RFC 7009 §2.1): (1) the server must be on; (2) the client authenticates as
 * at the token endpoint (a public client names itself); (3) a refresh token or an access token of
 * that client revokes its whole grant (§2.1: revoking one may revoke the others of the grant).
 * (4) Anything else — unknown, expired, another client's — is answered like a success (§2.2), so
 * the answer says nothing about the token. The hint is only a hint: both kinds are recognised by
 * their shape.
 */
export async function revokeToken(
  svc: Services,
  params: { token?: string; token_type_hint?: string } & ClientCredentials,
  client: Principal['client'],
): Promise<void> {
  requireOAuth2(svc);
  const caller = authenticateClient(svc, params);
  if (params.token === undefined || params.token === '') throw errors.oauth('invalid_request', 'token is required');
  const grantId = await grantOf(svc, caller, params.token);
  if (grantId === undefined) return;
  const grant = await findGrant(svc.database, grantId);
  if (!grant || grant.clientId !== caller.id) return;
  if (await revokeGrant(svc.database, grant.id, svc.now().toISOString())) {
    const actor: Principal = { kind: 'oauth', id: grant.userId, role: null, permissions: new Set(), client };
    await recordAudit(svc, 'oauthRevoke', {
      actor,
      target: grant.userId,
      details: { clientId: caller.id, grantId: grant.id, via: 'revocation' },
    });
  }
}

async function grantOf(svc: Services, client: OAuthClient, token: string): Promise<string | undefined> {
  if (token.startsWith(OAUTH_REFRESH_TOKEN_PREFIX)) return (await findOAuthRefreshToken(svc.database, sha256Hex(token)))?.grantId;
  if (!isOAuthAccessToken(token)) return undefined;
  try {
    const claims = await verifyOAuthAccessToken(svc.jwtKey, tokenAudience(svc), token, svc.now(), svc.config.oauth2.accessTokenTtlMs);
    return claims.clientId === client.id ? claims.grantId : undefined;
  } catch {
    // Expired or not ours: there is nothing it could still do, so nothing to revoke (RFC 7009 §2.2).
    return undefined;
  }
}
