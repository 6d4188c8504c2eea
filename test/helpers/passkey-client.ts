import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from './app.js';
import { expectSpecError } from './expect-error.js';
import { SoftwareAuthenticator } from './software-authenticator.js';

export const PASSKEY_ORIGIN = 'http://localhost:3000';
export const PASSKEYS = { security: { passkey: { enabled: true, rpId: 'localhost', rpName: 'Vellum', origin: PASSKEY_ORIGIN } } };

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * The passkey endpoints as a browser page drives them, with software authenticators. It keeps
 * every body it was answered and every authenticator it made, so a suite can look for public keys.
 */
export function passkeyClient(app: () => TestApp) {
  const answered: string[] = [];
  const keys: SoftwareAuthenticator[] = [];
  // Failed passkey sign-ins count against the client IP's sign-in limit, which password sign-in
  // shares: each assertion comes from an address of its own unless a test pins one.
  const ip = { pinned: undefined as string | undefined, count: 0 };
  const clientIp = () => ip.pinned ?? `10.77.${Math.floor(++ip.count / 250)}.${ip.count % 250}`;

  async function call(method: Method, url: string, payload?: unknown, token?: string) {
    const remoteAddress = url === '/login/verify' ? clientIp() : undefined;
    const res = await app().request({ method, url: `/api/auth/passkey${url}`, payload: payload as never, token, remoteAddress });
    answered.push(res.body);
    return res;
  }

  function newAuthenticator(): SoftwareAuthenticator {
    const key = new SoftwareAuthenticator({ origin: PASSKEY_ORIGIN, rpId: 'localhost' });
    keys.push(key);
    return key;
  }

  async function register(token: string, key = newAuthenticator(), name?: string) {
    const options = (await call('POST', '/register/options', {}, token)).json().data;
    const res = await call('POST', '/register/verify', { response: key.register(options), ...(name && { name }) }, token);
    expect(res.statusCode, res.body).toBe(201);
    return { key, credential: res.json().data };
  }

  async function loginOptions() {
    const res = await call('POST', '/login/options', {});
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { challenge: string; rpId: string; allowCredentials: unknown[] };
  }

  async function loginWith(key: SoftwareAuthenticator, forge: Parameters<SoftwareAuthenticator['assert']>[1] = {}) {
    return call('POST', '/login/verify', { response: key.assert(await loginOptions(), forge) });
  }

  /** No answer carried a public key of any authenticator made here, in any encoding, or a field named for one. */
  function expectNoPublicKeys(): void {
    expect(answered.length).toBeGreaterThan(10);
    expect(keys.length).toBeGreaterThan(1);
    for (const key of keys) {
      const cose = key.cosePublicKey;
      for (const body of answered) {
        expect(body).not.toContain(cose.toString('base64url'));
        expect(body).not.toContain(cose.toString('base64'));
        expect(body).not.toContain(cose.subarray(-32).toString('base64url'));
      }
    }
    for (const body of answered) expect(body).not.toMatch(/public_?key/i);
  }

  return { call, newAuthenticator, register, loginOptions, loginWith, expectNoPublicKeys, ip };
}

export const expectUnauthorized = (res: LightMyRequestResponse) => expectSpecError(res, 401, 'UNAUTHORIZED');
