import { errors } from '../../errors.js';
import type { Services } from '../services.js';
import type { OAuthClient } from './clients.js';
import type { TokenResponse } from './grant-tokens.js';

// Placeholder while the device flow is being built on its own branch (issue 11): it replaces this file.
export async function redeemDeviceCode(_svc: Services, _client: OAuthClient, _deviceCode: string): Promise<TokenResponse> {
  throw errors.oauth('unsupported_grant_type', 'The device flow is not built yet');
}
