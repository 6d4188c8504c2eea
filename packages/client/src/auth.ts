import { revokeHeldTokens } from './oauth.js';
import type { ClientTokens, Transport } from './transport.js';
import type { Me, Preferences, User } from './users.js';

export type MfaMethod = 'totp' | 'email';

/** The tokens of a finished sign-in, as every sign-in endpoint answers them. */
export interface SignedInBody {
  token: string;
  refreshToken: string;
  expiresAt: string;
  user: User;
}

/**
 * The three answers of a first factor (docs/authentication.md, "1. The first factor"), told
 * apart by `kind`: signed in, a second factor to give, or a first method to set up.
 */
export type LoginOutcome =
  | ({ kind: 'signedIn' } & SignedInBody)
  | { kind: 'mfaRequired'; mfaToken: string; methods: MfaMethod[]; expiresAt: string }
  | { kind: 'mfaSetupRequired'; setupToken: string; methods: MfaMethod[]; expiresAt: string };

export interface LoginOptions {
  rememberMe?: boolean;
  /** A random id of at least 16 characters the device keeps (known and trusted devices). */
  deviceId?: string;
  captchaToken?: string;
}

export interface VerifyMfaInput {
  mfaToken: string;
  code: string;
  /** Default `totp`. */
  method?: MfaMethod;
  trustDevice?: boolean;
  deviceId?: string;
  deviceName?: string;
}

/** `PATCH /auth/me`: the fields given change (`null` clears a name). */
export interface ProfileChanges {
  firstName?: string | null;
  lastName?: string | null;
  email?: string;
  /** Needed with a new `email` when the user has a password. */
  currentPassword?: string;
}

/** `POST /auth/validate`: the session a token stands for. */
export interface TokenValidation {
  valid: true;
  /** `oauth`: an OAuth access token, acting for its user with its scopes (`role` is then `oauth`). */
  kind: 'user' | 'token' | 'oauth';
  user?: { id: string; username: string; role: string; name: string };
  token?: { id: string; name: string };
  oauth?: { client: { id: string; name: string }; scopes: string[] };
  sessionId?: string;
  /**
   * The role the credential acts with: the user's for a session, `api` for API tokens, and
   * `oauth` for OAuth access tokens, which never act with their user's role (docs/oauth2.md, "Scopes").
   */
  role: string;
  permissions: string[];
}

type LoginBody =
  | SignedInBody
  | { requiresMFA: true; mfaToken: string; methods: MfaMethod[]; expiresAt: string }
  | { requiresMFASetup: true; setupToken: string; methods: MfaMethod[]; expiresAt: string };

/** The union the client hands out for the wire's three bodies. */
export function loginOutcome(body: LoginBody): LoginOutcome {
  if ('requiresMFA' in body) return { kind: 'mfaRequired', mfaToken: body.mfaToken, methods: body.methods, expiresAt: body.expiresAt };
  if ('requiresMFASetup' in body)
    return { kind: 'mfaSetupRequired', setupToken: body.setupToken, methods: body.methods, expiresAt: body.expiresAt };
  return { kind: 'signedIn', ...body };
}

export const sessionTokens = (body: { token: string; refreshToken: string; expiresAt: string }): ClientTokens => ({
  kind: 'session',
  accessToken: body.token,
  refreshToken: body.refreshToken,
  expiresAt: body.expiresAt,
});

/** Signing in and the account itself (docs/api.md, "Authentication", "Password reset"). */
export class AuthApi {
  constructor(private readonly t: Transport) {}

  /** `POST /auth/login`; a `signedIn` outcome's tokens are adopted. */
  async login(username: string, password: string, opts: LoginOptions = {}): Promise<LoginOutcome> {
    const { data } = await this.t.json<{ data: LoginBody }>({
      method: 'POST',
      path: '/auth/login',
      json: { username, password, ...opts },
      auth: 'none',
    });
    return this.adopt(loginOutcome(data));
  }

  /** Finishes a `mfaRequired` login with an authenticator or mailed code; the tokens are adopted. */
  async verifyMfa(input: VerifyMfaInput): Promise<SignedInBody> {
    return this.signedIn('/auth/mfa/verify', { method: 'totp', ...input });
  }

  /** Finishes a `mfaRequired` login with a backup code (each works once). */
  async verifyBackupCode(mfaToken: string, code: string): Promise<SignedInBody> {
    return this.signedIn('/auth/mfa/verify-backup', { mfaToken, code });
  }

  /** Mails a login code when the user has email among other methods. */
  async sendEmailCode(mfaToken: string): Promise<void> {
    await this.t.json({ method: 'POST', path: '/auth/mfa/email/send', json: { mfaToken }, auth: 'none' });
  }

  /** Exchanges the refresh token now (the client also does it by itself on a 401). */
  refresh(): Promise<ClientTokens> {
    return this.t.refresh();
  }

  /**
   * Ends the sign-in: a session's refresh tokens are spent (`POST /auth/logout`; the access token
   * stays valid until it expires, as the spec says); an OAuth grant is revoked (RFC 7009). The
   * tokens are forgotten either way.
   */
  async logout(): Promise<void> {
    const tokens = this.t.tokens;
    if (tokens?.kind === 'oauth') return revokeHeldTokens(this.t);
    try {
      await this.t.json({ method: 'POST', path: '/auth/logout', json: tokens?.refreshToken ? { refreshToken: tokens.refreshToken } : {} });
    } finally {
      await this.t.setTokens(undefined);
    }
  }

  async me(): Promise<Me> {
    return (await this.t.json<{ data: Me }>({ method: 'GET', path: '/auth/me' })).data;
  }

  /**
   * `PUT /auth/me/preferences`: replaces the signed-in user's own preferences with `value` (docs/api.md,
   * "Preferences"); over 64 KiB of JSON is 413 `PAYLOAD_TOO_LARGE`. Answers what was stored.
   */
  async replacePreferences(value: Preferences): Promise<Preferences> {
    return (await this.t.json<{ data: Preferences }>({ method: 'PUT', path: '/auth/me/preferences', json: value })).data;
  }

  /**
   * `PATCH /auth/me`: changes the signed-in user's own name or email (docs/api.md, "Self-service
   * profile"). A new email needs `currentPassword` when the user has a password (a wrong one is
   * 403 `FORBIDDEN`); an email another user has is 409 `CONFLICT`.
   */
  async updateProfile(changes: ProfileChanges): Promise<User> {
    return (await this.t.json<{ data: User }>({ method: 'PATCH', path: '/auth/me', json: changes })).data;
  }

  /** Checks the held token, or `token` when given. */
  async validate(token?: string): Promise<TokenValidation> {
    return (
      await this.t.json<{ data: TokenValidation }>({ method: 'POST', path: '/auth/validate', json: token !== undefined ? { token } : {} })
    ).data;
  }

  /** A wrong current password is 403 `FORBIDDEN`; the user's other sessions end. */
  async changePassword(currentPassword: string, newPassword: string): Promise<void> {
    await this.t.json({ method: 'POST', path: '/auth/change-password', json: { currentPassword, newPassword } });
  }

  /** The same answer whether or not the address exists; a link is mailed to an active user. */
  async requestPasswordReset(email: string, captchaToken?: string): Promise<void> {
    await this.t.json({ method: 'POST', path: '/auth/request-reset', json: { email, captchaToken }, auth: 'none' });
  }

  /**
   * `GET /auth/reset-status` (public): whether the server can mail a requested link at all
   * (`mail.smtpUrl`). Without mail, `requestPasswordReset` still answers the same, but no mail
   * leaves: an administrator hands out the link (`users.sendPasswordReset`).
   */
  async passwordResetStatus(): Promise<{ mail: boolean }> {
    return (await this.t.json<{ data: { mail: boolean } }>({ method: 'GET', path: '/auth/reset-status', auth: 'none' })).data;
  }

  async verifyResetToken(token: string): Promise<boolean> {
    return (
      await this.t.json<{ data: { valid: boolean } }>({ method: 'POST', path: '/auth/verify-reset-token', json: { token }, auth: 'none' })
    ).data.valid;
  }

  /** Sets the password from a reset (or invitation) link's token. */
  async resetPassword(token: string, password: string): Promise<void> {
    await this.t.json({ method: 'POST', path: '/auth/reset-password', json: { token, password }, auth: 'none' });
  }

  private async signedIn(path: string, json: unknown): Promise<SignedInBody> {
    const { data } = await this.t.json<{ data: SignedInBody }>({ method: 'POST', path, json, auth: 'none' });
    await this.t.setTokens(sessionTokens(data));
    return data;
  }

  private async adopt(outcome: LoginOutcome): Promise<LoginOutcome> {
    if (outcome.kind === 'signedIn') await this.t.setTokens(sessionTokens(outcome));
    return outcome;
  }
}
