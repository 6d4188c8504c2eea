import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
  type VerifiedRegistrationResponse,
} from '@simplewebauthn/server';
import { errors } from '../../errors.js';
import { findPasskey, insertPasskey, listUserPasskeys } from '../../storage/identity/passkeys-store.js';
import { findUserById } from '../../storage/identity/users-store.js';
import type { Principal } from '../access/principal.js';
import { recordAudit } from '../audit/record-audit.js';
import { displayName } from '../identity/user-view.js';
import type { Services } from '../services.js';
import { CHALLENGE_TTL_MS, spendChallenge, storeChallenge } from './challenges.js';
import { requirePasskeys, requireSessionUser } from './passkey-settings.js';
import { toPasskeyView, type PasskeyView } from './passkey-view.js';

/** ES256 and RS256 (COSE algorithm ids, RFC 9053 §2.1 and RFC 8812 §2). */
export const PASSKEY_ALGORITHMS = [-7, -257];

/**
 * `POST /auth/passkey/register/options`: creation options for a discoverable credential of the
 * signed-in user. The user handle is the user's id; the user's passkeys are excluded so one
 * authenticator is not registered twice.
 */
export async function passkeyRegistrationOptions(svc: Services, actor: Principal): Promise<PublicKeyCredentialCreationOptionsJSON> {
  // 1. Passkeys on, a signed-in user.
  const cfg = requirePasskeys(svc);
  const userId = requireSessionUser(actor);
  const user = await findUserById(svc.database, userId);
  if (!user) throw errors.unauthorized('Session not found');
  // 2. The options, with the user's credentials to exclude.
  const existing = await listUserPasskeys(svc.database, user.id);
  const options = await generateRegistrationOptions({
    rpName: cfg.rpName,
    rpID: cfg.rpId,
    userName: user.username,
    userID: new TextEncoder().encode(user.id),
    userDisplayName: displayName(user),
    timeout: CHALLENGE_TTL_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports as AuthenticatorTransportFuture[] })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
  });
  // 3. The challenge, kept server-side for this user.
  await storeChallenge(svc, options.challenge, 'register', user.id);
  return options;
}

/**
 * `POST /auth/passkey/register/verify`: checks the attestation against a challenge issued to this
 * user, the configured origins and rpId; any failure is 400 `INVALID_INPUT`.
 */
export async function verifyPasskeyRegistration(
  svc: Services,
  actor: Principal,
  input: { response: RegistrationResponseJSON; name?: string },
): Promise<PasskeyView> {
  // 1. Passkeys on, a signed-in user.
  const cfg = requirePasskeys(svc);
  const userId = requireSessionUser(actor);
  // 2. Spend the challenge the authenticator signed: it must be this user's, live and unused.
  const challenge = await spendChallenge(svc, input.response.response.clientDataJSON, 'register', userId);
  if (!challenge) throw errors.invalidInput('Passkey registration failed: unknown, expired or used challenge');
  // 3. Verify the attestation.
  let result: VerifiedRegistrationResponse;
  try {
    result = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: challenge,
      expectedOrigin: cfg.origins,
      expectedRPID: cfg.rpId,
      requireUserVerification: true,
      supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
    });
  } catch (err) {
    throw errors.invalidInput(`Passkey registration failed: ${(err as Error).message}`);
  }
  if (!result.verified) throw errors.invalidInput('Passkey registration failed');
  // 4. Store the credential (one authenticator credential belongs to one account).
  const info = result.registrationInfo;
  if (await findPasskey(svc.database, info.credential.id)) throw errors.conflict('This passkey is registered already');
  const stored = {
    id: info.credential.id,
    userId,
    publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: [...(info.credential.transports ?? input.response.response.transports ?? [])],
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
    name: input.name?.trim() || 'Passkey',
    createdAt: svc.now().toISOString(),
    lastUsedAt: null,
  };
  // Checked above for a clear answer; the insert decides when two registrations race.
  if (!(await insertPasskey(svc.database, stored))) throw errors.conflict('This passkey is registered already');
  await recordAudit(svc, 'passkeyAdd', { actor, target: userId, details: { credentialId: stored.id, name: stored.name } });
  return toPasskeyView(stored);
}
