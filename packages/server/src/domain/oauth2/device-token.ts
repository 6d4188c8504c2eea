import { errors } from '../../errors.js';
import { inTransaction } from '../../storage/connection.js';
import { attachDeviceGrant, findDeviceCodeByHash, recordDevicePoll, redeemDeviceCodeRow } from '../../storage/oauth2/oauth-device-store.js';
import { DEVICE_CODE_PREFIX, sha256Hex } from '../identity/secrets.js';
import type { Services } from '../services.js';
import type { OAuthClient } from './clients.js';
import { openGrant, type TokenResponse } from './grant-tokens.js';
import { splitScope } from './scopes.js';

const INVALID = 'Unknown or already used device code';

/**
 * The device-code grant (RFC 8628 §3.4–3.5), polled by the device:
 * 1. the code must exist and belong to this client, else `invalid_grant`; a redeemed code too;
 * 2. past its lifetime: `expired_token`;
 * 3. denied: `access_denied`;
 * 4. still pending: a poll sooner than the code's interval after the previous one is
 *    `slow_down` and grows the interval by 5 s for every later poll; otherwise `authorization_pending`;
 * 5. approved: the grant is opened and the code marked redeemed in one transaction, with a
 *    conditional update, so of two racing polls one gets the tokens and the other `invalid_grant`.
 */
export async function redeemDeviceCode(svc: Services, client: OAuthClient, deviceCode: string): Promise<TokenResponse> {
  const now = svc.now();
  const at = now.toISOString();
  const row = deviceCode.startsWith(DEVICE_CODE_PREFIX) ? await findDeviceCodeByHash(svc.database, sha256Hex(deviceCode)) : undefined;
  if (!row || row.clientId !== client.id || row.status === 'redeemed') throw errors.oauth('invalid_grant', INVALID);
  if (row.expiresAt <= at) throw errors.oauth('expired_token', 'The device code has expired; start again');
  if (row.status === 'denied') throw errors.oauth('access_denied', 'The user denied the request');
  if (row.status === 'pending') {
    const tooSoon = row.lastPolledAt !== null && now.getTime() - Date.parse(row.lastPolledAt) < row.intervalS * 1000;
    await recordDevicePoll(svc.database, row.userCode, at, tooSoon);
    if (tooSoon) throw errors.oauth('slow_down', `Polling too fast; wait ${row.intervalS + 5} seconds between polls`);
    throw errors.oauth('authorization_pending', 'The user has not decided yet');
  }
  const userId = row.userId;
  const granted = row.grantedScope;
  if (userId === null || granted === null) throw errors.oauth('invalid_grant', INVALID);
  const tokens = await inTransaction(svc.database, async (conn) => {
    if (!(await redeemDeviceCodeRow(conn, row.userCode))) return undefined;
    const opened = await openGrant(svc, conn, { userId, client, scopes: splitScope(granted) });
    await attachDeviceGrant(conn, row.userCode, opened.grantId);
    return opened.tokens;
  });
  if (!tokens) throw errors.oauth('invalid_grant', INVALID);
  return tokens;
}
