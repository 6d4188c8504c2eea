import { VellumApiError } from './errors.js';
import { oauthTokens, type ClientTokens, type OAuthTokenResponse, type Transport } from './transport.js';

/** The built-in public client of the CLI (device code and refresh token grants). */
export const CLI_CLIENT_ID = 'service-cli';

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** The device authorization response (RFC 8628 §3.2). */
export interface DeviceAuthorization {
  device_code: string;
  /** `ABCD-EFGH`: what the user types at `verification_uri`. */
  user_code: string;
  verification_uri: string;
  verification_uri_complete?: string;
  expires_in: number;
  /** Seconds between polls (RFC 8628 §3.5); 5 when absent. */
  interval?: number;
}

/** What the approving user is shown for a user code. */
export interface DeviceRequest {
  userCode: string;
  client: { id: string; name: string };
  scopes: string[];
  expiresAt: string;
}

/** A live OAuth grant of the signed-in user. */
export interface OAuthGrant {
  id: string;
  client: { id: string; name: string };
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

export interface PollOptions {
  signal?: AbortSignal;
  /** Called after each answer that says "keep waiting", with the interval now in force (seconds). */
  onPoll?: (state: { interval: number; answer: 'authorization_pending' | 'slow_down' }) => void;
}

/**
 * The client's side of Vellum's OAuth 2.0 server: the device flow (RFC 8628) the CLI signs in
 * with, the approval a signed-in user gives, revocation (RFC 7009) and the user's grants.
 * Errors of `/auth/device`, `/auth/token` and `/auth/revoke` are `VellumApiError`s whose `code`
 * is the RFC error string.
 */
export class OAuthApi {
  constructor(private readonly t: Transport) {}

  /** `POST /auth/device`; no scope asks for every scope the client may have. */
  async startDeviceAuthorization(opts: { clientId?: string; scope?: string | string[] } = {}): Promise<DeviceAuthorization> {
    const scope = Array.isArray(opts.scope) ? opts.scope.join(' ') : opts.scope;
    return this.t.json<DeviceAuthorization>({
      method: 'POST',
      path: '/auth/device',
      form: { client_id: opts.clientId ?? CLI_CLIENT_ID, scope: scope || undefined },
      auth: 'none',
    });
  }

  /**
   * Polls `POST /auth/token` until the user decides: waits `interval` seconds before each poll and
   * 5 seconds more after each `slow_down` (RFC 8628 §3.5). Resolves to the tokens, which the client
   * adopts (`kind: 'oauth'`); rejects with the typed error on `access_denied`, `expired_token`,
   * `invalid_grant`, and with the signal's reason when aborted.
   */
  async pollDeviceToken(authorization: DeviceAuthorization, opts: PollOptions & { clientId?: string } = {}): Promise<ClientTokens> {
    const clientId = opts.clientId ?? CLI_CLIENT_ID;
    let interval = authorization.interval ?? 5;
    const deadline = this.t.now() + authorization.expires_in * 1000;
    for (;;) {
      await this.t.sleep(interval * 1000, opts.signal);
      // RFC 8628 §3.5: polling stops when the device code expires, whether or not the server said so.
      if (this.t.now() > deadline)
        throw new VellumApiError(400, { code: 'expired_token', message: 'The device code expired before the request was approved' });
      try {
        const body = await this.t.json<OAuthTokenResponse>({
          method: 'POST',
          path: '/auth/token',
          form: { grant_type: DEVICE_CODE_GRANT, device_code: authorization.device_code, client_id: clientId },
          auth: 'none',
          signal: opts.signal,
        });
        const tokens = oauthTokens(body, clientId, this.t.now());
        await this.t.setTokens(tokens);
        return tokens;
      } catch (err) {
        if (!(err instanceof VellumApiError) || (err.code !== 'authorization_pending' && err.code !== 'slow_down')) throw err;
        if (err.code === 'slow_down') interval += 5;
        opts.onPoll?.({ interval, answer: err.code });
      }
    }
  }

  /**
   * `POST /auth/revoke` (RFC 7009): the token's whole grant ends. Without an argument the held
   * OAuth tokens are revoked (the refresh token, else the access token) and forgotten.
   */
  async revokeToken(token?: string, opts: { clientId?: string; hint?: 'refresh_token' | 'access_token' } = {}): Promise<void> {
    if (token === undefined) return revokeHeldTokens(this.t);
    await revoke(this.t, token, opts.clientId ?? this.t.tokens?.clientId ?? CLI_CLIENT_ID, opts.hint);
  }

  /** `GET /auth/device/verify`: what a user code asks for (404 once unknown, expired or decided). */
  async deviceRequest(userCode: string): Promise<DeviceRequest> {
    return (await this.t.json<{ data: DeviceRequest }>({ method: 'GET', path: '/auth/device/verify', query: { code: userCode } })).data;
  }

  /** The signed-in user's decision on a user code; `scopes` narrows what is granted. */
  async approveDevice(userCode: string, action: 'approve' | 'deny' = 'approve', scopes?: string[]): Promise<void> {
    await this.t.json({ method: 'POST', path: '/auth/device/verify', json: { user_code: userCode, action, scopes } });
  }

  async listGrants(): Promise<OAuthGrant[]> {
    return (await this.t.json<{ data: OAuthGrant[] }>({ method: 'GET', path: '/auth/grants' })).data;
  }

  /** Ends a grant: its refresh token and access tokens stop at once. */
  async revokeGrant(id: string): Promise<void> {
    await this.t.json({ method: 'DELETE', path: `/auth/grants/${encodeURIComponent(id)}` });
  }
}

/** Revokes the held OAuth grant (its refresh token, else its access token) and forgets the tokens. */
export async function revokeHeldTokens(t: Transport): Promise<void> {
  const held = t.tokens;
  const value = held?.refreshToken ?? held?.accessToken;
  if (value === undefined) return;
  try {
    await revoke(t, value, held?.clientId ?? CLI_CLIENT_ID, held?.refreshToken ? 'refresh_token' : 'access_token');
  } finally {
    if (t.tokens === held) await t.setTokens(undefined);
  }
}

function revoke(t: Transport, token: string, clientId: string, hint: string | undefined): Promise<unknown> {
  return t.json({ method: 'POST', path: '/auth/revoke', form: { token, client_id: clientId, token_type_hint: hint }, auth: 'none' });
}
