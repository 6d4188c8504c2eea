import type { OAuthScope } from '../../config/oauth-scopes.js';
import { errors } from '../../errors.js';
import type { Conn } from '../../storage/connection.js';
import { inTransaction } from '../../storage/connection.js';
import {
  findGrantPrincipal,
  findOAuthRefreshToken,
  insertGrant,
  insertOAuthRefreshToken,
  revokeGrant,
  spendOAuthRefreshToken,
  touchGrant,
} from '../../storage/oauth2/oauth-grants-store.js';
import { OAUTH_REFRESH_TOKEN_PREFIX, randomBase62, sha256Hex } from '../identity/secrets.js';
import { uuidv7 } from '../shared/ids.js';
import type { Services } from '../services.js';
import type { OAuthClient } from './clients.js';
import { signOAuthAccessToken, type TokenAudience } from './oauth-access-token.js';
import { formatScope, grantedScopes, narrowScopes, splitScope } from './scopes.js';

/** The token endpoint's success body (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

export function tokenAudience(svc: Services): TokenAudience {
  const issuer = svc.config.oauth2.issuer;
  return { issuer, audience: `${issuer}${svc.config.server.basePath}` };
}

/**
 * Opens a grant for an approval (a device approved, an authorization code redeemed) and mints its
 * first tokens, in the caller's transaction. A refresh token comes only to clients allowed the
 * refresh grant. The answered `scope` (and the token's claim) is the granted one: the approved
 * scopes the user holds rights of (`grantedScopes`, RFC 6749 §3.3).
 */
export async function openGrant(
  svc: Services,
  conn: Conn,
  g: { userId: string; client: OAuthClient; scopes: readonly OAuthScope[] },
): Promise<{ grantId: string; tokens: TokenResponse }> {
  const now = svc.now().toISOString();
  const grantId = uuidv7();
  const scope = formatScope(g.scopes);
  await insertGrant(conn, {
    id: grantId,
    userId: g.userId,
    clientId: g.client.id,
    scope,
    createdAt: now,
    lastUsedAt: now,
    revokedAt: null,
  });
  // The grant keeps what the user approved; the token carries what of it the user holds now.
  const user = await findGrantPrincipal(conn, grantId);
  const granted = formatScope(user ? grantedScopes(g.scopes, user.role, user.permissions) : []);
  const refresh = g.client.grants.includes('refresh_token') ? await newRefreshToken(svc, conn, grantId) : undefined;
  return {
    grantId,
    tokens: await accessTokenResponse(svc, { userId: g.userId, clientId: g.client.id, grantId, scope: granted }, refresh),
  };
}

const INVALID = 'Invalid or expired refresh token';

/**
 * The refresh grant (RFC 6749 §6) with rotation: the token is spent and a new one issued. A spent
 * token presented again means it leaked or raced, so the whole grant is revoked (RFC 9700
 * §4.14.2), and its access tokens stop with it. `scope` may narrow, never widen.
 */
export async function refreshGrant(svc: Services, client: OAuthClient, refreshToken: string, scope?: string): Promise<TokenResponse> {
  const now = svc.now().toISOString();
  const outcome = await inTransaction(svc.database, async (conn) => {
    const row = refreshToken.startsWith(OAUTH_REFRESH_TOKEN_PREFIX)
      ? await findOAuthRefreshToken(conn, sha256Hex(refreshToken))
      : undefined;
    if (!row) return { error: INVALID };
    const grant = await findGrantPrincipal(conn, row.grantId);
    if (!grant || grant.clientId !== client.id) return { error: INVALID };
    if (row.usedAt !== null || !(await spendOAuthRefreshToken(conn, row.hash, now))) {
      await revokeGrant(conn, row.grantId, now);
      return { error: 'Refresh token reuse detected; the grant is revoked' };
    }
    if (grant.revokedAt !== null || row.expiresAt <= now || !grant.active) return { error: INVALID };
    await touchGrant(conn, grant.grantId, now);
    const next = await newRefreshToken(svc, conn, grant.grantId);
    return { grant, next };
  });
  // The revocation above must commit, so the error is thrown only after the transaction.
  if ('error' in outcome) throw errors.oauth('invalid_grant', outcome.error ?? INVALID);
  const { grant, next } = outcome;
  // Narrowed from what the user approved, then capped by what the user holds now.
  const approved = splitScope(grant.scope);
  const scopes = grantedScopes(scope === undefined ? approved : narrowRefresh(approved, scope), grant.role, grant.permissions);
  return accessTokenResponse(svc, { userId: grant.userId, clientId: client.id, grantId: grant.grantId, scope: formatScope(scopes) }, next);
}

function narrowRefresh(granted: OAuthScope[], scope: string): OAuthScope[] {
  try {
    return narrowScopes(granted, splitScope(scope));
  } catch {
    throw errors.oauth('invalid_scope', 'A refresh may only narrow the granted scope');
  }
}

/**
 * A new refresh token for the grant. Each rotation gets the full lifetime again, so a command line
 * in daily use stays signed in while one left alone for `oauth2.refreshTokenTtl` must sign in again.
 */
async function newRefreshToken(svc: Services, conn: Conn, grantId: string): Promise<string> {
  const token = OAUTH_REFRESH_TOKEN_PREFIX + randomBase62(43);
  const now = svc.now();
  await insertOAuthRefreshToken(conn, {
    hash: sha256Hex(token),
    grantId,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + svc.config.oauth2.refreshTokenTtlMs).toISOString(),
    usedAt: null,
  });
  return token;
}

async function accessTokenResponse(
  svc: Services,
  c: { userId: string; clientId: string; grantId: string; scope: string },
  refreshToken: string | undefined,
): Promise<TokenResponse> {
  const { token, expiresIn } = await signOAuthAccessToken(
    svc.jwtKey,
    tokenAudience(svc),
    { sub: c.userId, clientId: c.clientId, scope: c.scope, grantId: c.grantId },
    svc.now(),
    svc.config.oauth2.accessTokenTtlMs,
  );
  const body: TokenResponse = { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: c.scope };
  if (refreshToken !== undefined) body.refresh_token = refreshToken;
  return body;
}
