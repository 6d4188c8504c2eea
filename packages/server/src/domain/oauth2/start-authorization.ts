import type { OAuthScope } from '../../config/oauth-scopes.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';
import { checkAuthorizationRequest, type AuthorizationParams } from './authorization-request.js';
import { requireOAuth2 } from './oauth2-gate.js';
import { requireSignedInUser } from './signed-in-user.js';

/** What the consent page shows (docs/oauth2.md, "The consent page"). */
export interface Consent {
  client: { id: string; name: string };
  scopes: OAuthScope[];
  redirectUri: string;
  state?: string;
}

export type StartAuthorization = { kind: 'redirect'; location: string } | { kind: 'consent'; consent: Consent };

/**
 * `GET /auth/authorize` (RFC 6749 §4.1.1): (1) the request is checked — client and redirect URI
 * problems throw 400, the others become an error response at the redirect URI; (2) without a
 * session the browser goes to the studio's consent page with the same query, which signs the user
 * in and comes back; (3) a signed-in user gets what to show on that page.
 */
export function startAuthorization(svc: Services, actor: Principal, params: AuthorizationParams, rawQuery: string): StartAuthorization {
  requireOAuth2(svc);
  // 1. The request.
  const checked = checkAuthorizationRequest(svc, params);
  if (!checked.ok) return { kind: 'redirect', location: checked.redirectUrl };
  // 2. Nobody signed in: the studio's page signs in first.
  if (actor.kind === 'anonymous') return { kind: 'redirect', location: `${svc.config.oauth2.issuer}/studio/auth/authorize?${rawQuery}` };
  // 3. The consent data, for a user only.
  requireSignedInUser(actor);
  const { client, scopes, redirectUri, state } = checked.request;
  return { kind: 'consent', consent: { client: { id: client.id, name: client.name }, scopes, redirectUri, state } };
}
