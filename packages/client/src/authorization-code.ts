import { oauthTokens, type ClientTokens, type OAuthTokenResponse, type Transport } from './transport.js';

/** A PKCE pair (RFC 7636 §4.1–4.2): keep `verifier` until the code comes back, send `challenge` now. */
export interface Pkce {
  verifier: string;
  challenge: string;
  method: 'S256';
}

/** The parameters of an authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3). */
export interface AuthorizationParams {
  clientId: string;
  redirectUri: string;
  scope?: string | string[];
  state: string;
  codeChallenge: string;
}

/** What the consent page shows for a request. */
export interface AuthorizationRequest {
  client: { id: string; name: string };
  scopes: string[];
  redirectUri: string;
  state: string;
}

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** A fresh verifier (32 random bytes, 43 characters) and its S256 challenge, with WebCrypto (browsers and Node 20). */
export async function createPkce(): Promise<Pkce> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)), method: 'S256' };
}

/** A random `state` (RFC 6749 §10.12): compare it with the one the redirect brings back. */
export const createState = (): string => base64url(crypto.getRandomValues(new Uint8Array(16)));

const query = (p: AuthorizationParams) => ({
  response_type: 'code',
  client_id: p.clientId,
  redirect_uri: p.redirectUri,
  scope: Array.isArray(p.scope) ? p.scope.join(' ') : p.scope,
  state: p.state,
  code_challenge: p.codeChallenge,
  code_challenge_method: 'S256',
});

/**
 * The authorization-code flow with PKCE, for apps registered under `oauth2.clients`: the app's
 * side (`authorizationUrl`, `exchangeCode`) and the consent page's (`authorizationRequest`,
 * `decide`). The tokens of `exchangeCode` are adopted and refresh like the device flow's (public
 * clients: a confidential client's secret is not kept, so its refreshes must be its own).
 */
export class AuthorizationCodeApi {
  constructor(private readonly t: Transport) {}

  /** `GET /auth/authorize?…`: where to send the user's browser. */
  authorizationUrl(params: AuthorizationParams): string {
    return this.t.url('/auth/authorize', query(params));
  }

  /** The consent page reading the request it was sent with (the user's session). */
  async authorizationRequest(params: AuthorizationParams): Promise<AuthorizationRequest> {
    return (await this.t.json<{ data: AuthorizationRequest }>({ method: 'GET', path: '/auth/authorize', query: query(params) })).data;
  }

  /** The user's decision: the URL to send the browser to (`redirect_uri?code=…` or `?error=access_denied`). */
  async decide(params: AuthorizationParams, action: 'approve' | 'deny', scopes?: string[]): Promise<string> {
    const { data } = await this.t.json<{ data: { redirectUrl: string } }>({
      method: 'POST',
      path: '/auth/authorize',
      json: { ...query(params), action, scopes },
    });
    return data.redirectUrl;
  }

  /** `POST /auth/token grant_type=authorization_code`; a confidential client adds its secret (`client_secret_post`). */
  async exchangeCode(input: {
    code: string;
    redirectUri: string;
    codeVerifier: string;
    clientId: string;
    clientSecret?: string;
  }): Promise<ClientTokens> {
    const body = await this.t.json<OAuthTokenResponse>({
      method: 'POST',
      path: '/auth/token',
      form: {
        grant_type: 'authorization_code',
        code: input.code,
        redirect_uri: input.redirectUri,
        code_verifier: input.codeVerifier,
        client_id: input.clientId,
        client_secret: input.clientSecret,
      },
      auth: 'none',
    });
    const tokens = oauthTokens(body, input.clientId, this.t.now());
    await this.t.setTokens(tokens);
    return tokens;
  }
}
