import { sessionTokens, type SignedInBody } from './auth.js';
import type { Transport } from './transport.js';

export interface PasskeyStatus {
  enabled: boolean;
  rpId: string | null;
  rpName: string | null;
}

/** A registered passkey (docs/api.md, "Passkeys"): never its public key or counter. */
export interface PasskeyCredential {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  deviceType: string;
  backedUp: boolean;
  transports: string[];
}

/**
 * Passkeys. The WebAuthn ceremony itself runs in the browser (`navigator.credentials`); these
 * calls carry its JSON forms (WebAuthn Level 3 `…OptionsJSON` / `…ResponseJSON`) unchanged.
 */
export class PasskeysApi {
  constructor(private readonly t: Transport) {}

  async status(): Promise<PasskeyStatus> {
    return (await this.t.json<{ data: PasskeyStatus }>({ method: 'GET', path: '/auth/passkey/status' })).data;
  }

  async list(): Promise<PasskeyCredential[]> {
    return (await this.t.json<{ data: PasskeyCredential[] }>({ method: 'GET', path: '/auth/passkey/credentials' })).data;
  }

  async rename(credentialId: string, name: string): Promise<PasskeyCredential> {
    return (await this.t.json<{ data: PasskeyCredential }>({ method: 'PATCH', path: credentialPath(credentialId), json: { name } })).data;
  }

  async delete(credentialId: string): Promise<void> {
    await this.t.json({ method: 'DELETE', path: credentialPath(credentialId) });
  }

  /** PublicKeyCredentialCreationOptionsJSON for `navigator.credentials.create`. */
  async registrationOptions(): Promise<Record<string, unknown>> {
    return (await this.t.json<{ data: Record<string, unknown> }>({ method: 'POST', path: '/auth/passkey/register/options', json: {} }))
      .data;
  }

  async register(response: unknown, name?: string): Promise<PasskeyCredential> {
    return (
      await this.t.json<{ data: PasskeyCredential }>({ method: 'POST', path: '/auth/passkey/register/verify', json: { response, name } })
    ).data;
  }

  /** PublicKeyCredentialRequestOptionsJSON for `navigator.credentials.get`. */
  async loginOptions(): Promise<Record<string, unknown>> {
    return (
      await this.t.json<{ data: Record<string, unknown> }>({ method: 'POST', path: '/auth/passkey/login/options', json: {}, auth: 'none' })
    ).data;
  }

  /** A passkey is both factors: always tokens, adopted. */
  async login(response: unknown, deviceId?: string): Promise<SignedInBody> {
    const { data } = await this.t.json<{ data: SignedInBody }>({
      method: 'POST',
      path: '/auth/passkey/login/verify',
      json: { response, deviceId },
      auth: 'none',
    });
    await this.t.setTokens(sessionTokens(data));
    return data;
  }
}

const credentialPath = (id: string) => `/auth/passkey/credentials/${encodeURIComponent(id)}`;
