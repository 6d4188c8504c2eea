import { loginOutcome, sessionTokens, type LoginOutcome, type SignedInBody } from './auth.js';
import type { Transport } from './transport.js';

export interface IdentityProviderStatus {
  enabled: boolean;
  providers: Array<{ id: string; name: string }>;
  /** With a signed-in user: whether their account is linked. */
  linked?: boolean;
}

export interface IdentityProviderCallback {
  code: string;
  state: string;
  mode?: 'login' | 'link';
  rememberMe?: boolean;
  deviceId?: string;
}

/** Sign-in with the OpenID Connect provider of `security.oauth` (docs/api.md, "Identity provider"). */
export class IdentityProviderApi {
  constructor(private readonly t: Transport) {}

  async status(): Promise<IdentityProviderStatus> {
    return (await this.t.json<{ data: IdentityProviderStatus }>({ method: 'GET', path: '/auth/oauth/status' })).data;
  }

  /** The provider URL to send the browser to; `link` needs a signed-in user. */
  async start(mode: 'login' | 'link' = 'login'): Promise<{ authorizationUrl: string; state: string }> {
    return (
      await this.t.json<{ data: { authorizationUrl: string; state: string } }>({
        method: 'POST',
        path: '/auth/oauth/idp/init',
        json: { mode },
        auth: mode === 'login' ? 'none' : 'bearer',
      })
    ).data;
  }

  /** The provider's `code` and `state`: the outcomes of a login (tokens adopted), or `linked`. */
  async complete(input: IdentityProviderCallback): Promise<LoginOutcome | { kind: 'linked' }> {
    const { data } = await this.t.json<{ data: Parameters<typeof loginOutcome>[0] | { linked: true } }>({
      method: 'POST',
      path: '/auth/oauth/idp/callback',
      json: input,
      auth: input.mode === 'link' ? 'bearer' : 'none',
    });
    if ('linked' in data) return { kind: 'linked' };
    const outcome = loginOutcome(data);
    if (outcome.kind === 'signedIn') await this.t.setTokens(sessionTokens(outcome satisfies SignedInBody));
    return outcome;
  }

  async unlink(): Promise<void> {
    await this.t.json({ method: 'DELETE', path: '/auth/oauth/idp/unlink' });
  }
}
