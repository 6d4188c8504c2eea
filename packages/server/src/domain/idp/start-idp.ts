import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import { insertIdpState, type IdpMode } from '../../storage/identity/idp-store.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';
import { requireIdp, requireSessionUser } from './idp-settings.js';
import { providerClient } from './provider-client.js';

/** How long an authorization request may be completed (docs/api.md, "Identity provider"). */
export const STATE_TTL_MS = 10 * 60_000;

/** The scopes asked for: the subject, and the address and name a new account is made from. */
const SCOPES = 'openid email profile';

/** The `state` is kept only as its hash: a copy of the table cannot complete anyone's sign-in. */
export function stateHash(state: string): string {
  return createHash('sha256').update(state).digest('hex');
}

/**
 * `POST /auth/oauth/idp/init`: an authorization request with code + PKCE S256 + nonce (OpenID
 * Connect Core 1.0 §3.1.2.1, RFC 7636 §4). State, nonce and verifier stay here, single use.
 * `mode: 'link'` attaches the account to the signed-in user, so it needs a session.
 */
export async function startIdp(svc: Services, actor: Principal, mode: IdpMode): Promise<{ authorizationUrl: string; state: string }> {
  // 1. A provider, and for linking the user it links to.
  const cfg = requireIdp(svc);
  const userId = mode === 'link' ? requireSessionUser(actor) : null;
  // 2. The provider's endpoints (fetched once; 503 while it cannot be reached).
  const config = await providerClient(svc, cfg);
  // 3. Fresh secrets, stored before the browser is sent anywhere.
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const now = svc.now().getTime();
  await insertIdpState(svc.database, {
    stateHash: stateHash(state),
    nonce,
    codeVerifier,
    mode,
    userId,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + STATE_TTL_MS).toISOString(),
  });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: cfg.redirectUri,
    scope: SCOPES,
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { authorizationUrl: url.href, state };
}
