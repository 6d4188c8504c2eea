import type { OAuthScope } from '../../config/oauth-scopes.js';
import { errors } from '../../errors.js';
import { decideDeviceCode, findDeviceCodeByUserCode, type StoredDeviceCode } from '../../storage/oauth2/oauth-device-store.js';
import type { Principal } from '../access/principal.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Services } from '../services.js';
import { findClient, type OAuthClient } from './clients.js';
import { requireOAuth2 } from './oauth2-gate.js';
import { formatScope, narrowScopes, splitScope } from './scopes.js';
import { requireSignedInUser } from './signed-in-user.js';
import { formatUserCode, normaliseUserCode } from './user-codes.js';

/** What the studio's device page shows before the user decides. */
export interface DeviceRequestView {
  userCode: string;
  client: { id: string; name: string };
  scopes: OAuthScope[];
  expiresAt: string;
}

const NOT_FOUND = 'No pending device request with this code';

/** `GET /auth/device/verify?code=`: the pending request behind a user code. */
export async function showDeviceRequest(svc: Services, actor: Principal, typed: string): Promise<DeviceRequestView> {
  const { row, client } = await pendingRequest(svc, actor, typed);
  return {
    userCode: formatUserCode(row.userCode),
    client: { id: client.id, name: client.name },
    scopes: splitScope(row.scope),
    expiresAt: row.expiresAt,
  };
}

/**
 * `POST /auth/device/verify {user_code, action, scopes?}`: (1) a signed-in user (2) names a pending
 * request; (3) approving may narrow the scopes to a subset (else 400); (4) the decision is one
 * conditional update, so a request is decided once. The grant itself is opened when the device
 * redeems its code (device-token.ts). The approving session is fully signed in, second factor
 * included, so nothing more is asked.
 */
export async function decideDeviceRequest(
  svc: Services,
  actor: Principal,
  input: { userCode: string; action: 'approve' | 'deny'; scopes?: string[] },
): Promise<void> {
  const { row, client, userId } = await pendingRequest(svc, actor, input.userCode);
  const scopes = input.action === 'approve' ? narrowScopes(splitScope(row.scope), input.scopes) : undefined;
  const decided = await decideDeviceCode(svc.database, row.userCode, {
    status: input.action === 'approve' ? 'approved' : 'denied',
    userId,
    grantedScope: scopes ? formatScope(scopes) : null,
    now: svc.now().toISOString(),
  });
  if (!decided) throw errors.notFound(NOT_FOUND);
  if (scopes)
    await recordAudit(svc, 'oauthGrant', { actor, target: userId, details: { clientId: client.id, scopes, flow: 'device_code' } });
}

/**
 * The pending, unexpired request behind what the user typed. Every miss (malformed, unknown,
 * expired or already decided) counts against the user and the client IP on the device-code
 * limiter, so user codes cannot be guessed (RFC 8628 §5.1): 429 once either is spent.
 */
async function pendingRequest(
  svc: Services,
  actor: Principal,
  typed: string,
): Promise<{ row: StoredDeviceCode; client: OAuthClient; userId: string }> {
  requireOAuth2(svc);
  const userId = requireSignedInUser(actor);
  const keys = [`user:${userId}`, `ip:${actor.client?.ip ?? 'unknown'}`];
  await svc.deviceCodeLimiter.check(keys, svc.now().getTime());
  const code = normaliseUserCode(typed);
  const row = code === undefined ? undefined : await findDeviceCodeByUserCode(svc.database, code);
  const client = row && findClient(svc, row.clientId);
  if (!row || !client || row.status !== 'pending' || row.expiresAt <= svc.now().toISOString()) {
    await svc.deviceCodeLimiter.hit(keys, svc.now().getTime());
    throw errors.notFound(NOT_FOUND);
  }
  return { row, client, userId };
}
