import * as oidc from 'openid-client';
import type { IdpConfig } from '../../config/types.js';
import { errors } from '../../errors.js';
import { issuedAtAcceptable } from '../identity/jwt-times.js';
import type { Services } from '../services.js';

/** Seconds a client is asked to wait when the provider cannot be reached. */
const RETRY_AFTER = 30;

/**
 * Provider metadata by configuration, fetched on first use (OpenID Connect Discovery 1.0 §4) so
 * start-up does not depend on the provider; a failed fetch is not kept, the next request retries.
 */
const discovered = new WeakMap<IdpConfig, Promise<oidc.Configuration>>();

export function providerClient(svc: Services, cfg: IdpConfig): Promise<oidc.Configuration> {
  let pending = discovered.get(cfg);
  if (!pending) {
    pending = discover(cfg).catch((err: unknown) => {
      discovered.delete(cfg);
      svc.log.warn({ err, issuer: cfg.issuer }, 'identity provider discovery failed');
      throw errors.serviceUnavailable(RETRY_AFTER, 'The identity provider cannot be reached', err);
    });
    discovered.set(cfg, pending);
  }
  return pending;
}

async function discover(cfg: IdpConfig): Promise<oidc.Configuration> {
  // http:// issuers pass the config checks only on loopback hosts (docs/api.md, "Identity provider").
  const insecure = new URL(cfg.issuer).protocol === 'http:';
  const auth = cfg.clientSecret ? oidc.ClientSecretPost(cfg.clientSecret) : oidc.None();
  const config = await oidc.discovery(new URL(cfg.issuer), cfg.clientId, undefined, auth, {
    execute: insecure ? [oidc.allowInsecureRequests] : [],
  });
  // The ID token's signature is checked against the provider's keys even though it came straight
  // from the token endpoint (OpenID Connect Core 1.0 §3.1.3.7 step 6 would allow skipping it).
  oidc.enableNonRepudiationChecks(config);
  return config;
}

/** The claims of a checked ID token that sign-in reads. */
export interface ProviderAccount {
  issuer: string;
  subject: string;
  email?: string;
  emailVerified: boolean;
  preferredUsername?: string;
  givenName?: string;
  familyName?: string;
}

/**
 * Redeems the code (with the PKCE verifier) and checks the ID token: signature, `iss`, `aud`,
 * `exp`, `nonce` (OpenID Connect Core 1.0 §3.1.3.7), and `iat` at most 60 s ahead. Any refusal is 401; an unreachable provider 503.
 */
export async function redeemCode(
  svc: Services,
  cfg: IdpConfig,
  input: { code: string; state: string; nonce: string; codeVerifier: string },
): Promise<ProviderAccount> {
  const config = await providerClient(svc, cfg);
  const callback = new URL(cfg.redirectUri);
  callback.searchParams.set('code', input.code);
  callback.searchParams.set('state', input.state);
  let claims: oidc.IDToken | undefined;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: input.codeVerifier,
      expectedNonce: input.nonce,
      expectedState: input.state,
      idTokenExpected: true,
    });
    claims = tokens.claims();
  } catch (err) {
    if (isRefusal(err)) {
      svc.log.info({ err }, 'identity provider sign-in refused');
      throw errors.unauthorized('The identity provider sign-in could not be verified');
    }
    throw errors.serviceUnavailable(RETRY_AFTER, 'The identity provider cannot be reached', err);
  }
  if (!claims) throw errors.unauthorized('The identity provider returned no ID token');
  // openid-client checks `iat` is a number but not that it is not in the future; every JWT the
  // server verifies is held to 60 s (jwt-times.ts). Its lifetime is the provider's to choose.
  if (!issuedAtAcceptable(claims.iat, svc.now())) {
    svc.log.info({ iat: claims.iat }, 'identity provider sign-in refused: the ID token is issued in the future');
    throw errors.unauthorized('The identity provider sign-in could not be verified');
  }
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  return {
    issuer: claims.iss,
    subject: claims.sub,
    email: str(claims.email)?.toLowerCase(),
    emailVerified: claims.email_verified === true,
    preferredUsername: str(claims.preferred_username),
    givenName: str(claims.given_name),
    familyName: str(claims.family_name),
  };
}

/** A provider answer that did not check out (as opposed to a network failure). */
function isRefusal(err: unknown): boolean {
  return (
    err instanceof oidc.ClientError ||
    err instanceof oidc.ResponseBodyError ||
    err instanceof oidc.AuthorizationResponseError ||
    err instanceof oidc.WWWAuthenticateChallengeError
  );
}
