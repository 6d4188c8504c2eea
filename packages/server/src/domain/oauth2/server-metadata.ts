import { OAUTH_SCOPES } from '../../config/oauth-scopes.js';
import type { Services } from '../services.js';
import { DEVICE_CODE_GRANT } from './exchange-token.js';
import { requireOAuth2 } from './oauth2-gate.js';

/**
 * The authorization server's metadata (RFC 8414 §2), served at the root's and the API's
 * `/.well-known/oauth-authorization-server` (§3). Every URL is built from `oauth2.issuer`, which
 * must equal the `issuer` a client discovered with (§3.3).
 */
export function serverMetadata(svc: Services) {
  requireOAuth2(svc);
  const { issuer } = svc.config.oauth2;
  const api = `${issuer}${svc.config.server.basePath}`;
  return {
    issuer,
    authorization_endpoint: `${api}/auth/authorize`,
    token_endpoint: `${api}/auth/token`,
    device_authorization_endpoint: `${api}/auth/device`,
    revocation_endpoint: `${api}/auth/revoke`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    scopes_supported: [...OAUTH_SCOPES],
    // Every authorization response carries `iss` (RFC 9207 §3), against mix-up attacks.
    authorization_response_iss_parameter_supported: true,
  };
}
