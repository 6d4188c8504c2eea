import { generateKeyPairSync, sign } from 'node:crypto';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { TestApp } from './app.js';

export interface IdToken {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

export const CLIENT_ID = 'vellum-test';
export const REDIRECT_URI = 'http://localhost:5173/studio/auth/idp/callback';

/**
 * A real OpenID provider on 127.0.0.1 (oauth2-mock-server) for the identity-provider suites:
 * each flow's ID-token claims are given by the test, and a test may tamper with the ID token
 * before it is signed (`tamper`) or with the token response (`tamperResponse`).
 */
export function useOidcProvider() {
  const server = new OAuth2Server();
  const state: {
    claims: Record<string, unknown>;
    tamper?: (token: IdToken) => void;
    tamperResponse?: (body: Record<string, unknown>) => void;
  } = { claims: {} };
  beforeAll(async () => {
    await server.issuer.keys.generate('RS256');
    await server.start(0, '127.0.0.1');
    server.service.on('beforeTokenSigning', (token: IdToken) => {
      // The access token carries `scope`; the ID token does not.
      if ('scope' in token.payload) return;
      Object.assign(token.payload, state.claims);
      state.tamper?.(token);
    });
    server.service.on('beforeResponse', (response: { body: Record<string, unknown> }) => {
      state.tamperResponse?.(response.body);
    });
  });
  afterEach(() => {
    state.tamper = undefined;
    state.tamperResponse = undefined;
  });
  afterAll(() => server.stop());

  const issuer = () => server.issuer.url as string;
  const config = (extra: Record<string, unknown> = {}) => ({
    security: {
      oauth: { issuer: issuer(), clientId: CLIENT_ID, clientSecret: 'idp-test-client-secret', redirectUri: REDIRECT_URI, ...extra },
      rateLimit: { login: { windowMs: 900_000, max: 1000 } },
    },
  });

  /** Init, the provider's redirect (followed by hand), and the callback. */
  async function flow(
    t: TestApp,
    opts: { sub: string; email?: string; mode?: 'login' | 'link'; token?: string; extra?: Record<string, unknown> },
  ) {
    const { code, state: st } = await authorize(t, opts.mode, opts.token);
    state.claims = { sub: opts.sub, email: opts.email ?? `${opts.sub}@idp.example`, email_verified: true, ...opts.extra };
    return t.request({ method: 'POST', url: '/api/auth/oauth/idp/callback', payload: { code, state: st } });
  }

  /** Init and the provider's redirect: the code and state the browser would bring back. */
  async function authorize(t: TestApp, mode?: 'login' | 'link', token?: string): Promise<{ code: string; state: string }> {
    const init = await t.request({ method: 'POST', url: '/api/auth/oauth/idp/init', token, payload: mode ? { mode } : {} });
    expect(init.statusCode, init.body).toBe(200);
    const { authorizationUrl, state: st } = init.json().data as { authorizationUrl: string; state: string };
    const res = await fetch(authorizationUrl, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location') as string);
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    expect(back.searchParams.get('state')).toBe(st);
    return { code: back.searchParams.get('code') as string, state: st };
  }

  /**
   * Replaces the ID token in the next token response by `make(header, claims)` of the one the
   * provider signed (synchronously: the event does not wait).
   */
  function replaceIdToken(make: (header: Record<string, unknown>, payload: Record<string, unknown>) => string) {
    state.tamperResponse = (body) => {
      const [header, payload] = String(body.id_token)
        .split('.')
        .slice(0, 2)
        .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>);
      body.id_token = make(header, payload);
    };
  }

  return { server, state, issuer, config, flow, authorize, replaceIdToken };
}

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

/** An unsigned JWT (`alg: none`) with these claims. */
export function unsignedJwt(_header: Record<string, unknown>, payload: Record<string, unknown>): string {
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`;
}

/** Signs the claims RS256 with a key the provider never published, under the provider's key id. */
export function foreignSigned(header: Record<string, unknown>, payload: Record<string, unknown>): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid: header.kid })}.${b64(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}
