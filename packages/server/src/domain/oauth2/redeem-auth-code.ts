import { errors } from '../../errors.js';
import type { Services } from '../services.js';
import type { OAuthClient } from './clients.js';
import type { TokenResponse } from './grant-tokens.js';

// Placeholder while the authorization-code flow is being built on its own branch (issue 11): it replaces this file.
export async function redeemAuthCode(
  _svc: Services,
  _client: OAuthClient,
  _input: { code: string; redirectUri: string; codeVerifier: string },
): Promise<TokenResponse> {
  throw errors.oauth('unsupported_grant_type', 'The authorization-code flow is not built yet');
}
