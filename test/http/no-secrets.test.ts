import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { SoftwareAuthenticator } from '../helpers/software-authenticator.js';

/** Every key anywhere in a JSON value. */
function allKeys(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => allKeys(v, out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      allKeys(v, out);
    }
  return out;
}
const SECRET_KEY = /hash|secret|password|backup|otp|providerToken|publicKey|public_key/i;
const ORIGIN = 'http://localhost:3000';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ security: { passkey: { enabled: true, rpId: 'localhost', rpName: 'Vellum', origin: ORIGIN } } });
});
afterAll(() => t.close());

describe('no secrets in responses', () => {
  it('a recursive key scan over every auth, passkey, user, token and audit response finds no hash, secret, password or public key', async () => {
    const bodies: Array<[string, unknown]> = [];
    const call = async (
      method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
      url: string,
      token?: string,
      payload?: Record<string, unknown>,
    ) => {
      const res = await t.request({ method, url, token, payload });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      bodies.push([`${method} ${url}`, res.body ? res.json() : null]);
      return res.json();
    };
    const session = (await call('POST', '/api/auth/login', undefined, { username: ADMIN.username, password: ADMIN.password })).data;
    const admin = session.token;
    await call('GET', '/api/auth/me', admin);
    await call('POST', '/api/auth/validate', admin);
    const refreshed = (await call('POST', '/api/auth/refresh', undefined, { refreshToken: session.refreshToken })).data;
    const key = new SoftwareAuthenticator({ origin: ORIGIN, rpId: 'localhost' });
    await call('GET', '/api/auth/passkey/status');
    const creation = (await call('POST', '/api/auth/passkey/register/options', refreshed.token, {})).data;
    await call('POST', '/api/auth/passkey/register/verify', refreshed.token, { response: key.register(creation) });
    const request = (await call('POST', '/api/auth/passkey/login/options', undefined, {})).data;
    await call('POST', '/api/auth/passkey/login/verify', undefined, { response: key.assert(request) });
    await call('GET', '/api/auth/passkey/credentials', refreshed.token);
    await call('PATCH', `/api/auth/passkey/credentials/${key.id}`, refreshed.token, { name: 'scan' });
    const user = (
      await call('POST', '/api/users', refreshed.token, {
        username: 'scan',
        email: 'scan@example.com',
        password: 'scan-password-1',
        role: 'editor',
      })
    ).data;
    await call('GET', '/api/users', refreshed.token);
    await call('GET', `/api/users/${user.id}`, refreshed.token);
    await call('GET', '/api/users/by-username/scan', refreshed.token);
    await call('GET', '/api/users/by-email/scan@example.com', refreshed.token);
    await call('PUT', `/api/users/${user.id}`, refreshed.token, { password: 'scan-password-2', firstName: 'S' });
    await call('POST', '/api/users/invite', refreshed.token, { username: 'scan2', email: 'scan2@example.com' });
    const scan = (await call('POST', '/api/auth/login', undefined, { username: 'scan', password: 'scan-password-2' })).data;
    await call('POST', '/api/auth/change-password', scan.token, { currentPassword: 'scan-password-2', newPassword: 'scan-password-3' });
    await call('POST', '/api/tokens', refreshed.token, { name: 'scan', permissions: ['content:read'] });
    await call('GET', '/api/tokens', refreshed.token);
    await call('POST', '/api/auth/request-reset', undefined, { email: 'scan@example.com' });
    await call('POST', '/api/auth/verify-reset-token', undefined, { token: 'x'.repeat(43) });
    await call('GET', '/api/audit', refreshed.token);
    await call('GET', '/api/config/settings', refreshed.token);
    await call('DELETE', `/api/auth/passkey/credentials/${key.id}`, refreshed.token);
    await call('POST', '/api/auth/logout', refreshed.token);
    await call('DELETE', `/api/users/${user.id}`, refreshed.token);
    for (const [name, body] of bodies) expect([name, allKeys(body).filter((k) => SECRET_KEY.test(k))]).toEqual([name, []]);
    // And no stored hash value appears anywhere in any body.
    const rows = await t.app.services.database.db.selectFrom('users').select('password_hash').execute();
    const everything = JSON.stringify(bodies);
    for (const r of rows) if (r.password_hash) expect(everything).not.toContain(r.password_hash);
  });

  it('MFA answers carry no hash, secret or code beyond the setup answer and the issued backup codes', async () => {
    const admin = (
      await t.request({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN.username, password: ADMIN.password } })
    ).json().data.token;
    const made = await t.request({
      method: 'POST',
      url: '/api/users',
      token: admin,
      payload: { username: 'mfascan', email: 'mfascan@example.com', password: 'mfascan-password-1' },
    });
    expect(made.statusCode).toBe(201);
    const creds = { username: 'mfascan', password: 'mfascan-password-1' };
    const session = (await t.request({ method: 'POST', url: '/api/auth/login', payload: creds })).json().data.token;
    // Allowed once: the setup answer (secret, URI, QR code) and the backup codes when issued.
    const setup = (await t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp', token: session })).json().data;
    const code = new TOTP({ secret: Secret.fromBase32(setup.secret) }).generate();
    const enabled = await t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp/verify', token: session, payload: { code } });
    expect(enabled.statusCode).toBe(200);
    const backupCodes: string[] = enabled.json().data.backupCodes;
    const bodies: Array<[string, unknown]> = [];
    const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, payload?: Record<string, unknown>) => {
      const res = await t.request({ method, url, token, payload });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      bodies.push([`${method} ${url}`, res.json()]);
      return res.json();
    };
    const device = 'scan-device-0123456789';
    const pending = (await call('POST', '/api/auth/login', undefined, { ...creds, deviceId: device })).data;
    await call('POST', '/api/auth/mfa/verify-backup', undefined, { mfaToken: pending.mfaToken, code: backupCodes[0] });
    await call('GET', '/api/auth/mfa/status', session);
    await call('GET', '/api/auth/mfa/trusted-devices', session);
    await call('GET', '/api/auth/me', session);
    await call('GET', '/api/users', admin);
    await call('GET', '/api/audit', admin);
    await call('DELETE', '/api/auth/mfa/trusted-devices', session);
    await call('POST', '/api/auth/mfa/disable-all', session, { password: creds.password });
    // `backupCodesRemaining` is a count, the one key of these answers the scan would otherwise flag.
    for (const [name, body] of bodies)
      expect([name, allKeys(body).filter((k) => SECRET_KEY.test(k) && k !== 'backupCodesRemaining')]).toEqual([name, []]);
    const everything = JSON.stringify(bodies);
    expect(everything).not.toContain(setup.secret);
    for (const c of backupCodes) expect(everything).not.toContain(c);
    const db = t.app.services.database.db;
    const hashes = (await db.selectFrom('mfa_tokens').select('token_hash').execute()).map((r) => r.token_hash);
    expect(hashes.length).toBeGreaterThan(0);
    for (const h of hashes) expect(everything).not.toContain(h);
  });

  it("OAuth answers carry no device code, refresh token or hash beyond the device and token endpoints' own", async () => {
    const o = await startTestApp({ oauth2: { enabled: true } });
    try {
      const admin = await o.login(ADMIN.username, ADMIN.password);
      const form = (body: Record<string, string>) => ({
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(body).toString(),
      });
      const bodies: Array<[string, unknown]> = [];
      const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, payload?: Record<string, unknown>) => {
        const res = await o.request({ method, url, token, payload });
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
        bodies.push([`${method} ${url}`, res.json()]);
        return res.json();
      };
      // Allowed: the device code in the device endpoint's answer, the tokens in the token endpoint's.
      const started = await o.request({
        method: 'POST',
        url: '/api/auth/device',
        ...form({ client_id: 'service-cli', scope: 'content:read' }),
      });
      const { device_code: deviceCode, user_code: userCode } = started.json();
      await call('GET', `/api/auth/device/verify?code=${userCode}`, admin);
      await call('POST', '/api/auth/device/verify', admin, { user_code: userCode, action: 'approve' });
      const grant = { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode, client_id: 'service-cli' };
      const tokens = (await o.request({ method: 'POST', url: '/api/auth/token', ...form(grant) })).json();
      const rotated = (
        await o.request({
          method: 'POST',
          url: '/api/auth/token',
          ...form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'service-cli' }),
        })
      ).json();
      await call('POST', '/api/auth/validate', rotated.access_token);
      await call('GET', '/api/auth/me', rotated.access_token);
      await call('GET', '/api/auth/grants', admin);
      await call('GET', '/.well-known/oauth-authorization-server');
      const revoked = await o.request({
        method: 'POST',
        url: '/api/auth/revoke',
        ...form({ client_id: 'service-cli', token: rotated.refresh_token }),
      });
      bodies.push(['POST /api/auth/revoke', revoked.json()]);
      await call('GET', '/api/audit', admin);
      for (const [name, body] of bodies) expect([name, allKeys(body).filter((k) => SECRET_KEY.test(k))]).toEqual([name, []]);
      const everything = JSON.stringify(bodies);
      for (const secret of [deviceCode, tokens.refresh_token, rotated.refresh_token]) expect(everything).not.toContain(secret);
      const db = o.app.services.database.db;
      const hashes = [
        ...(await db.selectFrom('oauth_device_codes').select('device_code_hash as h').execute()),
        ...(await db.selectFrom('oauth_refresh_tokens').select('token_hash as h').execute()),
      ].map((r) => r.h);
      expect(hashes.length).toBeGreaterThan(2);
      const withEndpoints = everything + started.body + JSON.stringify([tokens, rotated]);
      for (const h of hashes) expect(withEndpoints).not.toContain(h);
    } finally {
      await o.close();
    }
  });
});
