import { errors } from '../../errors.js';
import type { Services } from '../services.js';
import { authenticateClient, requireGrant } from './clients.js';
import { redeemDeviceCode } from './device-token.js';
import { refreshGrant, type TokenResponse } from './grant-tokens.js';
import { requireOAuth2 } from './oauth2-gate.js';
import { redeemAuthCode } from './redeem-auth-code.js';

/** RFC 8628 §3.4's grant type. */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** The token endpoint's parameters (RFC 6749 §4.1.3, §6; RFC 8628 §3.4), form fields as strings. */
export type TokenParams = Partial<
  Record<
    'grant_type' | 'client_id' | 'client_secret' | 'code' | 'redirect_uri' | 'code_verifier' | 'device_code' | 'refresh_token' | 'scope',
    string
  >
>;

/**
 * `POST /auth/token`: (1) the server must be on; (2) the client authenticates (RFC 6749 §2.3) or,
 * public, names itself; (3) it must be allowed the grant type; (4) the grant is redeemed.
 */
export async function exchangeToken(svc: Services, params: TokenParams, authorization?: string): Promise<TokenResponse> {
  requireOAuth2(svc);
  const client = authenticateClient(svc, { authorization, clientId: params.client_id, clientSecret: params.client_secret });
  switch (params.grant_type) {
    case DEVICE_CODE_GRANT:
      requireGrant(client, 'device_code');
      return redeemDeviceCode(svc, client, required(params.device_code, 'device_code'));
    case 'authorization_code':
      requireGrant(client, 'authorization_code');
      return redeemAuthCode(svc, client, {
        code: required(params.code, 'code'),
        // RFC 6749 §4.1.3: required when the authorization request had it; redeemAuthCode compares.
        redirectUri: params.redirect_uri === '' ? undefined : params.redirect_uri,
        codeVerifier: required(params.code_verifier, 'code_verifier'),
      });
    case 'refresh_token':
      requireGrant(client, 'refresh_token');
      return refreshGrant(svc, client, required(params.refresh_token, 'refresh_token'), params.scope);
    case undefined:
      throw errors.oauth('invalid_request', 'grant_type is required');
    default:
      throw errors.oauth('unsupported_grant_type', `Unsupported grant_type ${params.grant_type}`);
  }
}

function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw errors.oauth('invalid_request', `${name} is required`);
  return value;
}
