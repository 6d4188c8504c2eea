import { sessionTokens, type MfaMethod } from './auth.js';
import type { Transport } from './transport.js';
import type { User } from './users.js';

export interface MfaStatus {
  methods: MfaMethod[];
  backupCodesRemaining: number;
  /** How many trusted devices. */
  trustedDevices: number;
}

export interface TotpSetup {
  /** Shown once. */
  secret: string;
  otpauthUrl: string;
  /** An SVG data URL. */
  qrCode: string;
}

/** The answer of a setup confirmation; with a setup token it also signs in. */
export interface MfaEnabled {
  enabled: true;
  /** Only for the user's first method; shown once. */
  backupCodes?: string[];
  token?: string;
  refreshToken?: string;
  expiresAt?: string;
  user?: User;
}

export interface TrustedDevice {
  id: string;
  deviceId: string;
  name: string;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
}

/** Who sets up a method: the signed-in user (default), or a login held at `mfaSetupRequired`. */
export interface SetupCaller {
  setupToken?: string;
}

/** Second factors of the signed-in user (docs/api.md, "Multi-factor authentication"). */
export class MfaApi {
  constructor(private readonly t: Transport) {}

  async status(): Promise<MfaStatus> {
    return (await this.t.json<{ data: MfaStatus }>({ method: 'GET', path: '/auth/mfa/status' })).data;
  }

  async setupTotp(caller: SetupCaller = {}): Promise<TotpSetup> {
    return (await this.t.json<{ data: TotpSetup }>(this.setup('/auth/mfa/setup/totp', caller))).data;
  }

  /** Confirms a code of the new authenticator; with a setup token the login finishes and its tokens are adopted. */
  confirmTotp(code: string, caller: SetupCaller = {}): Promise<MfaEnabled> {
    return this.confirm('/auth/mfa/setup/totp/verify', code, caller);
  }

  /** Mails a setup code to the user's address. */
  async setupEmail(caller: SetupCaller = {}): Promise<void> {
    await this.t.json(this.setup('/auth/mfa/setup/email', caller));
  }

  confirmEmail(code: string, caller: SetupCaller = {}): Promise<MfaEnabled> {
    return this.confirm('/auth/mfa/setup/email/verify', code, caller);
  }

  async disable(method: MfaMethod, password: string): Promise<void> {
    await this.t.json({ method: 'POST', path: '/auth/mfa/disable', json: { method, password } });
  }

  async disableAll(password: string): Promise<void> {
    await this.t.json({ method: 'POST', path: '/auth/mfa/disable-all', json: { password } });
  }

  /** A new set of 10; the old set stops working. */
  async regenerateBackupCodes(password: string): Promise<string[]> {
    return (
      await this.t.json<{ data: { backupCodes: string[] } }>({
        method: 'POST',
        path: '/auth/mfa/backup-codes/regenerate',
        json: { password },
      })
    ).data.backupCodes;
  }

  async trustedDevices(): Promise<TrustedDevice[]> {
    return (await this.t.json<{ data: TrustedDevice[] }>({ method: 'GET', path: '/auth/mfa/trusted-devices' })).data;
  }

  /** One trusted device by its `id`, or all of them. */
  async revokeTrustedDevices(id?: string): Promise<void> {
    const path = id === undefined ? '/auth/mfa/trusted-devices' : `/auth/mfa/trusted-devices/${encodeURIComponent(id)}`;
    await this.t.json({ method: 'DELETE', path });
  }

  private setup(path: string, caller: SetupCaller) {
    return caller.setupToken
      ? { method: 'POST', path, headers: { 'x-mfa-setup-token': caller.setupToken }, auth: 'none' as const }
      : { method: 'POST', path };
  }

  private async confirm(path: string, code: string, caller: SetupCaller): Promise<MfaEnabled> {
    const { data } = await this.t.json<{ data: MfaEnabled }>({ ...this.setup(path, caller), json: { code } });
    if (data.token && data.refreshToken && data.expiresAt)
      await this.t.setTokens(sessionTokens({ token: data.token, refreshToken: data.refreshToken, expiresAt: data.expiresAt }));
    return data;
  }
}
