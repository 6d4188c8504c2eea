import { CLI_CLIENT_ID, OAUTH_SCOPES, type OAuthGrant, type OAuthScope } from '../../config/oauth-scopes.js';
import { errors } from '../../errors.js';
import { safeEqual, sha256Hex } from '../identity/secrets.js';
import type { Services } from '../services.js';

/** A client of the authorization server: the built-in `service-cli` or one of `oauth2.clients`. */
export interface OAuthClient {
  id: string;
  name: string;
  /** Has a secret and must authenticate at the token endpoint (RFC 6749 §2.1). */
  confidential: boolean;
  redirectUris: readonly string[];
  grants: readonly OAuthGrant[];
  scopes: readonly OAuthScope[];
}

/** The command line's client: public, every scope, device code and refresh (the spec's "OAuth 2.0 scopes"). */
const CLI_CLIENT: OAuthClient = {
  id: CLI_CLIENT_ID,
  name: 'Vellum CLI',
  confidential: false,
  redirectUris: [],
  grants: ['device_code', 'refresh_token'],
  scopes: OAUTH_SCOPES,
};

export function findClient(svc: Services, clientId: string | undefined): OAuthClient | undefined {
  if (clientId === undefined) return undefined;
  if (clientId === CLI_CLIENT_ID) return CLI_CLIENT;
  const c = svc.config.oauth2.clients.find((x) => x.clientId === clientId);
  if (!c) return undefined;
  return {
    id: c.clientId,
    name: c.name,
    confidential: c.clientSecret !== undefined,
    redirectUris: c.redirectUris,
    grants: c.grants,
    scopes: c.scopes,
  };
}

/** The client must be allowed this grant type (RFC 6749 §5.2 `unauthorized_client`). */
export function requireGrant(client: OAuthClient, grant: OAuthGrant): void {
  if (!client.grants.includes(grant)) throw errors.oauth('unauthorized_client', `This client may not use the ${grant} grant`);
}

export interface ClientCredentials {
  /** The `Authorization` header: `Basic base64(client_id:client_secret)` (RFC 6749 §2.3.1). */
  authorization?: string;
  clientId?: string;
  clientSecret?: string;
}

/**
 * Who is calling the token or revocation endpoint (RFC 6749 §2.3): a confidential client proves
 * itself with `client_secret_basic` or `client_secret_post` (one method, never both); a public
 * client names itself with `client_id`. Every failure is 401 `invalid_client`; secrets are
 * compared in constant time.
 */
export function authenticateClient(svc: Services, creds: ClientCredentials): OAuthClient {
  const basic = parseBasic(creds.authorization);
  if (basic && creds.clientSecret !== undefined) throw errors.oauth('invalid_request', 'Use one client authentication method, not two');
  if (basic && creds.clientId !== undefined && creds.clientId !== basic.id)
    throw errors.oauth('invalid_request', 'client_id does not match the Authorization header');
  const id = basic?.id ?? creds.clientId;
  const secret = basic?.secret ?? creds.clientSecret;
  if (id === undefined) throw errors.oauth('invalid_client', 'client_id is required');
  const client = findClient(svc, id);
  if (!client) throw errors.oauth('invalid_client', 'Unknown client');
  const expected = svc.config.oauth2.clients.find((c) => c.clientId === id)?.clientSecret;
  if (expected === undefined) {
    if (secret !== undefined) throw errors.oauth('invalid_client', 'This client is public and has no secret');
    return client;
  }
  // Hashing both sides first gives equal lengths, so the comparison time says nothing about the secret.
  if (secret === undefined || !safeEqual(sha256Hex(secret), sha256Hex(expected)))
    throw errors.oauth('invalid_client', 'Client authentication failed');
  return client;
}

function parseBasic(header: string | undefined): { id: string; secret: string } | undefined {
  if (header === undefined) return undefined;
  const m = /^Basic +([A-Za-z0-9+/=]+)$/i.exec(header);
  if (!m) throw errors.oauth('invalid_client', 'Malformed Authorization header; expected Basic credentials');
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw errors.oauth('invalid_client', 'Malformed Basic credentials');
  try {
    // RFC 6749 §2.3.1: both parts are form-urlencoded before they are joined.
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
  } catch {
    throw errors.oauth('invalid_client', 'Malformed Basic credentials');
  }
}
