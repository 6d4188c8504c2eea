import type { TrustedDevice } from '@vellum/client';
import { errors } from '../../errors.js';
import {
  deleteTrustedDevices,
  listTrustedDevices,
  putTrustedDevice,
  touchTrustedDevice,
} from '../../storage/identity/trusted-devices-store.js';
import type { Principal } from '../access/principal.js';
import { deviceHash } from '../identity/known-devices.js';
import { uuidv7 } from '../shared/ids.js';
import type { Services } from '../services.js';

/**
 * MFA trusted devices: a device named at `POST /auth/mfa/verify` with `trustDevice` skips the
 * second factor for `security.mfa.trustedDeviceDays` (30 by default), identified by the
 * `deviceId` sent at login. Not the known devices of the login limit (identity/known-devices.ts).
 */
export type TrustedDeviceView = TrustedDevice;

/** Whether the device is trusted by the user now; a trusted device's last use is recorded. */
export async function isTrustedDevice(svc: Services, userId: string, deviceId: string | undefined): Promise<boolean> {
  const hash = deviceHash(deviceId);
  if (!hash) return false;
  return touchTrustedDevice(svc.database, userId, hash, svc.now().toISOString());
}

export async function trustDevice(svc: Services, userId: string, deviceId: string | undefined, name: string | undefined): Promise<void> {
  const hash = deviceHash(deviceId);
  if (!hash || deviceId === undefined) return;
  const now = svc.now();
  const at = now.toISOString();
  await putTrustedDevice(svc.database, userId, {
    id: uuidv7(now.getTime()),
    deviceHash: hash,
    deviceIdEnc: svc.secretBox.seal(deviceId),
    name: name?.trim() || 'Unnamed device',
    createdAt: at,
    lastUsedAt: at,
    expiresAt: new Date(now.getTime() + svc.config.security.mfa.trustedDeviceDays * 86_400_000).toISOString(),
  });
}

export async function countTrustedDevices(svc: Services, userId: string): Promise<number> {
  return (await listTrustedDevices(svc.database, userId, svc.now().toISOString())).length;
}

/** `GET /auth/mfa/trusted-devices`: the signed-in user's live trusted devices. */
export async function listOwnTrustedDevices(svc: Services, actor: Principal): Promise<TrustedDeviceView[]> {
  const userId = signedInUserId(actor);
  const rows = await listTrustedDevices(svc.database, userId, svc.now().toISOString());
  return rows.map((d) => ({
    id: d.id,
    deviceId: svc.secretBox.open(d.deviceIdEnc),
    name: d.name,
    createdAt: d.createdAt,
    lastUsedAt: d.lastUsedAt,
    expiresAt: d.expiresAt,
  }));
}

/** `DELETE /auth/mfa/trusted-devices[/:id]`: one device of the user (404 for anyone else's), or all. */
export async function revokeOwnTrustedDevices(svc: Services, actor: Principal, id?: string): Promise<void> {
  const removed = await deleteTrustedDevices(svc.database, signedInUserId(actor), id);
  if (id !== undefined && removed === 0) throw errors.notFound('Trusted device not found');
}

/** The user behind a session; API tokens have no second factor to manage (403). */
export function signedInUserId(actor: Principal): string {
  if (actor.kind === 'anonymous') throw errors.unauthorized('Authentication required');
  if (actor.kind !== 'user' || !actor.id) throw errors.forbidden('Only users have a second factor');
  return actor.id;
}
