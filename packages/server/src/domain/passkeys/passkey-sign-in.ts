import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type PublicKeyCredentialRequestOptionsJSON,
  type VerifiedAuthenticationResponse,
} from '@simplewebauthn/server';
import { errors } from '../../errors.js';
import { findPasskey, recordPasskeyUse, type StoredPasskey } from '../../storage/identity/passkeys-store.js';
import { findUserById, type StoredUser } from '../../storage/identity/users-store.js';
import { recordAudit } from '../audit/record-audit.js';
import { deviceHash, rememberSignInDevice } from '../identity/known-devices.js';
import { openSignedInSession, type SignedIn } from '../identity/sign-in-outcome.js';
import type { ClientInfo } from '../identity/sessions.js';
import type { Services } from '../services.js';
import { CHALLENGE_TTL_MS, spendChallenge, storeChallenge } from './challenges.js';
import { requirePasskeys } from './passkey-settings.js';

export interface PasskeyLoginInput extends ClientInfo {
  response: AuthenticationResponseJSON;
  deviceId?: string;
}

const FAILED = 'Passkey sign-in failed';

/**
 * `POST /auth/passkey/login/options`: request options with no `allowCredentials`, so the
 * authenticator offers the discoverable credentials it holds for this rpId.
 */
export async function passkeyLoginOptions(svc: Services): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const cfg = requirePasskeys(svc);
  const options = await generateAuthenticationOptions({ rpID: cfg.rpId, timeout: CHALLENGE_TTL_MS, userVerification: 'required' });
  await storeChallenge(svc, options.challenge, 'login', null);
  return { ...options, allowCredentials: [] };
}

/**
 * `POST /auth/passkey/login/verify`: every failure (unknown credential, wrong origin or rpId,
 * unknown or used challenge, bad signature, a sign counter that did not move forward, inactive
 * account) is the same 401 and counts against the client IP's sign-in limit.
 */
export async function verifyPasskeyLogin(svc: Services, input: PasskeyLoginInput): Promise<SignedIn> {
  // 1. Passkeys on; the IP's sign-in limit (shared with password sign-in) first.
  const cfg = requirePasskeys(svc);
  const ipKey = `ip:${input.ip ?? 'unknown'}`;
  await svc.loginLimiter.check([ipKey], svc.now().getTime());
  const client = { ip: input.ip, userAgent: input.userAgent };
  const fail = async (reason: string, userId?: string): Promise<never> => {
    await svc.loginLimiter.hit([ipKey], svc.now().getTime());
    await recordAudit(svc, 'loginFailed', { actor: null, target: userId, details: { method: 'passkey', reason }, client });
    throw errors.unauthorized(FAILED);
  };
  // 2. The challenge the authenticator signed, spent whatever happens next.
  const challenge = await spendChallenge(svc, input.response.response.clientDataJSON, 'login', null);
  if (!challenge) return fail('challenge');
  // 3. The credential and its active owner; the user handle, when sent, must name that owner.
  const passkey = await findPasskey(svc.database, input.response.id);
  if (!passkey) return fail('credential');
  const user = await findUserById(svc.database, passkey.userId);
  if (!user || !user.active) return fail('account', passkey.userId);
  const handle = input.response.response.userHandle;
  if (handle && Buffer.from(handle, 'base64url').toString('utf8') !== user.id) return fail('userHandle', user.id);
  // 4. Signature, origin, rpId, user verification and the sign counter.
  const result = await verifyAssertion(svc, passkey, input.response, challenge, cfg);
  if (!result?.verified) return fail('assertion', user.id);
  const moved = await recordPasskeyUse(svc.database, passkey.id, {
    checkedCounter: passkey.counter,
    newCounter: result.authenticationInfo.newCounter,
    backedUp: result.authenticationInfo.credentialBackedUp,
    at: svc.now().toISOString(),
  });
  if (!moved) return fail('counter', user.id);
  // 5. Signed in.
  await rememberSignInDevice(svc, user.id, deviceHash(input.deviceId));
  return finishPasskeySignIn(svc, user, input);
}

async function verifyAssertion(
  svc: Services,
  passkey: StoredPasskey,
  response: AuthenticationResponseJSON,
  challenge: string,
  cfg: { origins: string[]; rpId: string },
): Promise<VerifiedAuthenticationResponse | undefined> {
  try {
    return await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: cfg.origins,
      expectedRPID: cfg.rpId,
      requireUserVerification: true,
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: passkey.transports as AuthenticatorTransportFuture[],
      },
    });
  } catch (err) {
    svc.log.debug({ err }, 'passkey assertion refused');
    return undefined;
  }
}

/**
 * A passkey is both factors (possession and user verification), so its sign-in always ends in a
 * session: no second factor, no setup (docs/api.md, "Passkeys").
 */
export function finishPasskeySignIn(svc: Services, user: StoredUser, client: ClientInfo): Promise<SignedIn> {
  return openSignedInSession(svc, user, { ...client, method: 'passkey' });
}
