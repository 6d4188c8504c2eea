import { isKnownDevice, rememberKnownDevice } from '../../storage/identity/known-devices-store.js';
import type { Services } from '../services.js';
import { sha256Hex } from './secrets.js';

/**
 * Known (sign-in) devices, the "device cookie" defence against account lock-out: a device that
 * signed in to an account in the last 30 days is not refused by that account's failure limit
 * (docs/api.md, "Rate limits"). Not to be confused with MFA trusted devices, which skip a second
 * factor. Devices are kept as SHA-256 of the `deviceId`, never the value itself.
 */
export const KNOWN_DEVICE_TTL_MS = 30 * 86_400_000;

/** Shorter ids are too easy to guess to be worth an exemption: they are ignored. */
const MIN_DEVICE_ID_LENGTH = 16;

/** The stored form of a usable `deviceId`, or undefined when there is none. */
export function deviceHash(deviceId: string | undefined): string | undefined {
  return deviceId !== undefined && deviceId.length >= MIN_DEVICE_ID_LENGTH ? sha256Hex(deviceId) : undefined;
}

/**
 * Whether the device signed in to this account before. With a device and no account it still
 * makes its query, so an unknown user answers in about the same time as a known one.
 */
export async function isKnownSignInDevice(svc: Services, userId: string | undefined, hash: string | undefined): Promise<boolean> {
  if (hash === undefined) return false;
  return isKnownDevice(svc.database, userId ?? '', hash, svc.now().toISOString());
}

/** After a successful sign-in: the device is known to the account for 30 more days. */
export async function rememberSignInDevice(svc: Services, userId: string, hash: string | undefined): Promise<void> {
  if (hash === undefined) return;
  const now = svc.now();
  await rememberKnownDevice(svc.database, userId, hash, now.toISOString(), new Date(now.getTime() + KNOWN_DEVICE_TTL_MS).toISOString());
}
