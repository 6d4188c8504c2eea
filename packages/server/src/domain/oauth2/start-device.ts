import { errors } from '../../errors.js';
import { insertDeviceCode } from '../../storage/oauth2/oauth-device-store.js';
import { DEVICE_CODE_PREFIX, randomBase62, sha256Hex } from '../identity/secrets.js';
import type { Services } from '../services.js';
import { authenticateClient, requireGrant, type ClientCredentials } from './clients.js';
import { requireOAuth2 } from './oauth2-gate.js';
import { formatScope, parseScope } from './scopes.js';
import { formatUserCode, newUserCode } from './user-codes.js';

/** RFC 8628 §3.2: how long a request lives and how often the device may poll. */
export const DEVICE_CODE_TTL_S = 600;
export const DEVICE_POLL_INTERVAL_S = 5;
/** Draws of a user code before giving up: with 20^8 codes a second draw is already rare. */
const USER_CODE_TRIES = 5;

/** The device authorization response (RFC 8628 §3.2). */
export interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/**
 * `POST /auth/device` (RFC 8628 §3.1–3.2): (1) the server must be on; (2) the client names or
 * authenticates itself (RFC 6749 §2.3) and (3) must be allowed the device grant; (4) the scope
 * is checked against the client's; (5) a device code (kept as SHA-256 only) and a user code
 * (the row's key, drawn again on a collision) are stored; (6) the user is sent to the studio.
 */
export async function startDeviceAuthorization(
  svc: Services,
  params: { scope?: string } & ClientCredentials,
): Promise<DeviceAuthorization> {
  requireOAuth2(svc);
  const client = authenticateClient(svc, params);
  requireGrant(client, 'device_code');
  const scope = formatScope(parseScope(params.scope, client.scopes));
  const deviceCode = DEVICE_CODE_PREFIX + randomBase62(43);
  const now = svc.now();
  for (let i = 0; i < USER_CODE_TRIES; i++) {
    const userCode = newUserCode();
    const stored = await insertDeviceCode(svc.database, {
      userCode,
      deviceCodeHash: sha256Hex(deviceCode),
      clientId: client.id,
      scope,
      status: 'pending',
      intervalS: DEVICE_POLL_INTERVAL_S,
      lastPolledAt: null,
      userId: null,
      grantedScope: null,
      grantId: null,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + DEVICE_CODE_TTL_S * 1000).toISOString(),
    });
    if (!stored) continue;
    const shown = formatUserCode(userCode);
    const verificationUri = `${svc.config.oauth2.issuer}/studio/auth/device`;
    return {
      device_code: deviceCode,
      user_code: shown,
      verification_uri: verificationUri,
      verification_uri_complete: `${verificationUri}?code=${shown}`,
      expires_in: DEVICE_CODE_TTL_S,
      interval: DEVICE_POLL_INTERVAL_S,
    };
  }
  throw errors.internal('Could not draw a free user code');
}
