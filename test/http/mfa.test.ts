import { describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { createUser } from '../helpers/create-user.js';
import { enableTotp, totpCode } from '../helpers/totp.js';

/** A clock the test moves: TOTP codes and token expiry follow it. */
let clock = Date.parse('2026-03-01T10:00:00.000Z');
const tick = (ms = 30_000) => (clock += ms);
const code = (secret: string, at = clock) => totpCode(secret, at);

let t: TestApp;
let admin: string;
useAdminApp(
  // A generous limit: this file's wrong codes all come from one address; rate limits have their own test.
  () => startTestApp({ security: { rateLimit: { login: { windowMs: 900_000, max: 1000 } } } }, { now: () => new Date(clock) }),
  (app, token) => ((t = app), (admin = token)),
);

let n = 0;
const PASSWORD = 'mfa-password-1';
const DEVICE = 'device-0123456789abcdef';

async function newUser(): Promise<string> {
  const username = `mfa${++n}`;
  await createUser(t, admin, { username, password: PASSWORD });
  return username;
}

const login = (username: string, extra: Record<string, unknown> = {}) =>
  t.request({ method: 'POST', url: '/api/auth/login', payload: { username, password: PASSWORD, ...extra } });

/** A user with TOTP enabled through a session: its secret, backup codes and a session token. */
async function enrolled() {
  const username = await newUser();
  const session = (await login(username)).json().data.token as string;
  const { secret, backupCodes } = await enableTotp(t, session, clock);
  tick();
  return { username, secret, session, backupCodes };
}

async function mfaToken(username: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await login(username, extra);
  expect(res.statusCode).toBe(200);
  expect(res.json().data.requiresMFA).toBe(true);
  return res.json().data.mfaToken as string;
}

const verify = (payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/auth/mfa/verify', payload: { method: 'totp', ...payload } });
const verifyBackup = (payload: Record<string, unknown>) => t.request({ method: 'POST', url: '/api/auth/mfa/verify-backup', payload });

describe('TOTP setup and login', () => {
  it('setup shows the secret, an otpauth URI and an SVG QR code; the first method issues 10 backup codes and sets mfaEnabled', async () => {
    const username = await newUser();
    const session = (await login(username)).json().data.token as string;
    const setup = (await t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp', token: session })).json().data;
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauthUrl).toMatch(new RegExp(`^otpauth://totp/Vellum:${username}\\?`));
    expect(setup.otpauthUrl).toContain(`secret=${setup.secret}`);
    expect(setup.otpauthUrl).toContain('algorithm=SHA1&digits=6&period=30');
    expect(setup.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(setup.qrCode.split(',')[1], 'base64').toString()).toContain('<svg');
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/mfa/setup/totp/verify',
      token: session,
      payload: { code: code(setup.secret) },
    });
    expect(res.statusCode).toBe(200);
    const { enabled, backupCodes } = res.json().data;
    expect(enabled).toBe(true);
    expect(backupCodes).toHaveLength(10);
    for (const c of backupCodes) expect(c).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
    expect(new Set(backupCodes).size).toBe(10);
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token: session });
    expect(me.json().data.mfaEnabled).toBe(true);
    const status = await t.request({ method: 'GET', url: '/api/auth/mfa/status', token: session });
    expect(status.json()).toEqual({ data: { methods: ['totp'], backupCodesRemaining: 10, trustedDevices: 0 } });
  });

  it('a wrong code at setup is 401 and leaves TOTP off; setting up again while enabled is 409', async () => {
    const username = await newUser();
    const session = (await login(username)).json().data.token as string;
    const secret = (await t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp', token: session })).json().data.secret;
    const wrong = await t.request({
      method: 'POST',
      url: '/api/auth/mfa/setup/totp/verify',
      token: session,
      payload: { code: code(secret, clock - 120_000) },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe('UNAUTHORIZED');
    expect((await login(username)).json().data.token).toEqual(expect.any(String));
    const ok = await t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp/verify', token: session, payload: { code: code(secret) } });
    expect(ok.statusCode).toBe(200);
    const again = await t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp', token: session });
    expect(again.statusCode).toBe(409);
  });

  it('login with TOTP enabled answers requiresMFA; the right code finishes it with tokens', async () => {
    const { username, secret } = await enrolled();
    const res = await login(username);
    expect(res.statusCode).toBe(200);
    const body = res.json().data;
    expect(body).toEqual({
      requiresMFA: true,
      mfaToken: expect.any(String),
      methods: ['totp'],
      expiresAt: new Date(clock + 300_000).toISOString(),
    });
    const done = await verify({ mfaToken: body.mfaToken, code: code(secret) });
    expect(done.statusCode).toBe(200);
    const data = done.json().data;
    expect(data).toEqual({
      token: expect.any(String),
      refreshToken: expect.any(String),
      expiresAt: expect.any(String),
      user: expect.objectContaining({ username, mfaEnabled: true }),
    });
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: data.token })).statusCode).toBe(200);
    // The token is spent: a second use is refused.
    tick();
    const reuse = await verify({ mfaToken: body.mfaToken, code: code(secret) });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().error.code).toBe('MFA_TOKEN_EXPIRED');
  });

  it('a code one step either side is accepted', async () => {
    const { username, secret } = await enrolled();
    // Two steps after enrolment, so the step before now was never accepted.
    tick(60_000);
    expect((await verify({ mfaToken: await mfaToken(username), code: code(secret, clock - 30_000) })).statusCode).toBe(200);
    expect((await verify({ mfaToken: await mfaToken(username), code: code(secret, clock + 30_000) })).statusCode).toBe(200);
  });

  it('a code two steps away is refused with 401 UNAUTHORIZED', async () => {
    const { username, secret } = await enrolled();
    const token = await mfaToken(username);
    for (const at of [clock - 60_000, clock + 60_000]) {
      const res = await verify({ mfaToken: token, code: code(secret, at) });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('UNAUTHORIZED');
    }
    // Each wrong code is a failed sign-in in the audit log.
    const audit = await t.request({ method: 'GET', url: '/api/audit?type=loginFailed&limit=100', token: admin });
    const failed = (audit.json().data as Array<{ details: { username?: string; step?: string } }>).filter(
      (e) => e.details.username === username,
    );
    expect(failed.map((e) => e.details.step)).toEqual(['mfa', 'mfa']);
  });

  it('TOTP replay: a code accepted once is refused the second time', async () => {
    const { username, secret } = await enrolled();
    const used = code(secret);
    expect((await verify({ mfaToken: await mfaToken(username), code: used })).statusCode).toBe(200);
    const replay = await verify({ mfaToken: await mfaToken(username), code: used });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.code).toBe('UNAUTHORIZED');
    // An earlier step than the accepted one is refused too, even inside the window.
    const earlier = await verify({ mfaToken: await mfaToken(username), code: code(secret, clock - 30_000) });
    expect(earlier.statusCode).toBe(401);
  });

  it('5 wrong codes burn the mfaToken: the right code then gets 401 MFA_TOKEN_EXPIRED', async () => {
    const { username, secret } = await enrolled();
    const token = await mfaToken(username);
    for (let i = 0; i < 5; i++) {
      const res = await verify({ mfaToken: token, code: '000000' === code(secret) ? '111111' : '000000' });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('UNAUTHORIZED');
    }
    const res = await verify({ mfaToken: token, code: code(secret) });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('MFA_TOKEN_EXPIRED');
  });

  it('20 wrong codes sent at once on one mfaToken: only 5 are tried, the rest find it burned, and so does the right code', async () => {
    const { username, secret } = await enrolled();
    const token = await mfaToken(username);
    const wrong = code(secret) === '000000' ? '111111' : '000000';
    const answers = await Promise.all(Array.from({ length: 20 }, () => verify({ mfaToken: token, code: wrong })));
    const codes = answers.map((r) => `${r.statusCode} ${r.json().error.code}`);
    expect(codes.filter((c) => c === '401 UNAUTHORIZED')).toHaveLength(5);
    expect(codes.filter((c) => c === '401 MFA_TOKEN_EXPIRED')).toHaveLength(15);
    const right = await verify({ mfaToken: token, code: code(secret) });
    expect(right.statusCode).toBe(401);
    expect(right.json().error.code).toBe('MFA_TOKEN_EXPIRED');
  });

  it('an mfaToken older than 5 minutes gets 401 MFA_TOKEN_EXPIRED', async () => {
    const { username, secret } = await enrolled();
    const token = await mfaToken(username);
    tick(5 * 60_000 + 1000);
    const res = await verify({ mfaToken: token, code: code(secret) });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('MFA_TOKEN_EXPIRED');
  });

  it('mfaToken, setup token and refresh token sent as a bearer are refused with 401', async () => {
    const { username } = await enrolled();
    const token = await mfaToken(username);
    const plain = await newUser();
    const refresh = (await login(plain)).json().data.refreshToken;
    await t.request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { mfaRequired: true } });
    try {
      const setupToken = (await login(await newUser())).json().data.setupToken;
      expect(setupToken).toEqual(expect.any(String));
      for (const bearer of [token, setupToken, refresh]) {
        for (const url of ['/api/auth/me', '/api/auth/mfa/status', '/api/users']) {
          const res = await t.request({ method: 'GET', url, token: bearer });
          expect([url, res.statusCode]).toEqual([url, 401]);
        }
        const setup = await t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp', token: bearer });
        expect(setup.statusCode).toBe(401);
      }
    } finally {
      await t.request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { mfaRequired: false } });
    }
  });
});

describe('backup codes', () => {
  it('a backup code finishes a login once; used again it is 401; the count goes down', async () => {
    const { username, backupCodes, session } = await enrolled();
    const first = await verifyBackup({ mfaToken: await mfaToken(username), code: backupCodes[0].toLowerCase() });
    expect(first.statusCode).toBe(200);
    expect(first.json().data.token).toEqual(expect.any(String));
    const again = await verifyBackup({ mfaToken: await mfaToken(username), code: backupCodes[0] });
    expect(again.statusCode).toBe(401);
    expect(again.json().error.code).toBe('UNAUTHORIZED');
    const status = await t.request({ method: 'GET', url: '/api/auth/mfa/status', token: session });
    expect(status.json().data.backupCodesRemaining).toBe(9);
  });

  it('regenerate needs the password (403 when wrong); the old set stops working, the new one works', async () => {
    const { username, backupCodes, session } = await enrolled();
    const wrong = await t.request({
      method: 'POST',
      url: '/api/auth/mfa/backup-codes/regenerate',
      token: session,
      payload: { password: 'nope-nope-1' },
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error.code).toBe('FORBIDDEN');
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/mfa/backup-codes/regenerate',
      token: session,
      payload: { password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const fresh = res.json().data.backupCodes as string[];
    expect(fresh).toHaveLength(10);
    const old = await verifyBackup({ mfaToken: await mfaToken(username), code: backupCodes[1] });
    expect(old.statusCode).toBe(401);
    expect((await verifyBackup({ mfaToken: await mfaToken(username), code: fresh[0] })).statusCode).toBe(200);
  });
});

describe('mfaRequired and the setup token', () => {
  it('a user without a method gets requiresMFASetup; setup with x-mfa-setup-token ends in tokens; the token is then spent', async () => {
    await t.request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { mfaRequired: true } });
    try {
      const username = await newUser();
      const res = await login(username);
      expect(res.statusCode).toBe(200);
      const body = res.json().data;
      expect(body).toEqual({
        requiresMFASetup: true,
        setupToken: expect.any(String),
        methods: ['totp'],
        expiresAt: new Date(clock + 900_000).toISOString(),
      });
      const headers = { 'x-mfa-setup-token': body.setupToken };
      const setup = await t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp', headers });
      expect(setup.statusCode).toBe(200);
      const secret = setup.json().data.secret;
      const done = await t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp/verify', headers, payload: { code: code(secret) } });
      expect(done.statusCode).toBe(200);
      const data = done.json().data;
      expect(data).toEqual({
        enabled: true,
        backupCodes: expect.any(Array),
        token: expect.any(String),
        refreshToken: expect.any(String),
        expiresAt: expect.any(String),
        user: expect.objectContaining({ username, mfaEnabled: true }),
      });
      expect((await t.request({ method: 'GET', url: '/api/auth/me', token: data.token })).statusCode).toBe(200);
      const after = await t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp', headers });
      expect(after.statusCode).toBe(401);
      expect(after.json().error.code).toBe('MFA_TOKEN_EXPIRED');
      // With a method now, the next login asks for the code instead.
      tick();
      expect((await login(username)).json().data.requiresMFA).toBe(true);
    } finally {
      await t.request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { mfaRequired: false } });
    }
  });

  it('a setup token expires after 15 minutes', async () => {
    await t.request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { mfaRequired: true } });
    try {
      const setupToken = (await login(await newUser())).json().data.setupToken;
      tick(15 * 60_000 + 1000);
      const res = await t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp', headers: { 'x-mfa-setup-token': setupToken } });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('MFA_TOKEN_EXPIRED');
    } finally {
      await t.request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { mfaRequired: false } });
    }
  });
});

describe('trusted devices', () => {
  it('a trusted device skips MFA; listed with its name; revoked, it is asked again', async () => {
    const { username, secret, session } = await enrolled();
    const res = await verify({
      mfaToken: await mfaToken(username, { deviceId: DEVICE }),
      code: code(secret),
      trustDevice: true,
      deviceId: DEVICE,
      deviceName: 'Laptop',
    });
    expect(res.statusCode).toBe(200);
    tick();
    const skipped = await login(username, { deviceId: DEVICE });
    expect(skipped.json().data.token).toEqual(expect.any(String));
    // Another device still needs the code.
    expect((await login(username, { deviceId: 'other-device-0123456789' })).json().data.requiresMFA).toBe(true);
    const list = await t.request({ method: 'GET', url: '/api/auth/mfa/trusted-devices', token: session });
    expect(list.statusCode).toBe(200);
    const devices = list.json().data;
    expect(devices).toEqual([
      {
        id: expect.any(String),
        deviceId: DEVICE,
        name: 'Laptop',
        createdAt: expect.any(String),
        lastUsedAt: new Date(clock).toISOString(),
        expiresAt: expect.any(String),
      },
    ]);
    expect(Date.parse(devices[0].expiresAt) - Date.parse(devices[0].createdAt)).toBe(30 * 86_400_000);
    expect((await t.request({ method: 'GET', url: '/api/auth/mfa/status', token: session })).json().data.trustedDevices).toBe(1);
    const del = await t.request({ method: 'DELETE', url: `/api/auth/mfa/trusted-devices/${devices[0].id}`, token: session });
    expect(del.statusCode).toBe(200);
    expect((await login(username, { deviceId: DEVICE })).json().data.requiresMFA).toBe(true);
    const missing = await t.request({ method: 'DELETE', url: `/api/auth/mfa/trusted-devices/${devices[0].id}`, token: session });
    expect(missing.statusCode).toBe(404);
  });

  it('DELETE /auth/mfa/trusted-devices revokes all; another user cannot revoke them', async () => {
    const { username, secret, session } = await enrolled();
    await verify({ mfaToken: await mfaToken(username), code: code(secret), trustDevice: true, deviceId: DEVICE, deviceName: 'A' });
    const id = (await t.request({ method: 'GET', url: '/api/auth/mfa/trusted-devices', token: session })).json().data[0].id;
    const other = await enrolled();
    expect((await t.request({ method: 'DELETE', url: `/api/auth/mfa/trusted-devices/${id}`, token: other.session })).statusCode).toBe(404);
    expect((await login(username, { deviceId: DEVICE })).json().data.token).toEqual(expect.any(String));
    expect((await t.request({ method: 'DELETE', url: '/api/auth/mfa/trusted-devices', token: session })).statusCode).toBe(200);
    expect((await login(username, { deviceId: DEVICE })).json().data.requiresMFA).toBe(true);
  });

  it('a password change revokes trusted devices', async () => {
    const { username, secret, session } = await enrolled();
    await verify({ mfaToken: await mfaToken(username), code: code(secret), trustDevice: true, deviceId: DEVICE, deviceName: 'A' });
    expect((await login(username, { deviceId: DEVICE })).json().data.token).toEqual(expect.any(String));
    const changed = await t.request({
      method: 'POST',
      url: '/api/auth/change-password',
      token: session,
      payload: { currentPassword: PASSWORD, newPassword: 'mfa-password-2' },
    });
    expect(changed.statusCode).toBe(200);
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password: 'mfa-password-2', deviceId: DEVICE },
    });
    expect(res.json().data.requiresMFA).toBe(true);
  });

  it('trustDevice without a usable deviceId is 400 INVALID_INPUT', async () => {
    const { username, secret } = await enrolled();
    const res = await verify({ mfaToken: await mfaToken(username), code: code(secret), trustDevice: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('INVALID_INPUT');
  });
});

describe('managing methods', () => {
  it('disable and disable-all need the password (403 when wrong, never 401); disabled, login gives tokens again', async () => {
    const { username, session } = await enrolled();
    for (const [url, payload] of [
      ['/api/auth/mfa/disable', { method: 'totp', password: 'wrong-password-9' }],
      ['/api/auth/mfa/disable-all', { password: 'wrong-password-9' }],
    ] as const) {
      const res = await t.request({ method: 'POST', url, token: session, payload });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    }
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/mfa/disable',
      token: session,
      payload: { method: 'totp', password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/auth/mfa/status', token: session })).json().data).toEqual({
      methods: [],
      backupCodesRemaining: 0,
      trustedDevices: 0,
    });
    expect((await login(username)).json().data.user.mfaEnabled).toBe(false);
    const missing = await t.request({
      method: 'POST',
      url: '/api/auth/mfa/disable',
      token: session,
      payload: { method: 'totp', password: PASSWORD },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('disable-all removes every method and backup code', async () => {
    const { username, session, backupCodes } = await enrolled();
    const res = await t.request({ method: 'POST', url: '/api/auth/mfa/disable-all', token: session, payload: { password: PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect((await login(username)).json().data.token).toEqual(expect.any(String));
    expect((await t.request({ method: 'GET', url: '/api/auth/mfa/status', token: session })).json().data.backupCodesRemaining).toBe(0);
    expect(backupCodes).toHaveLength(10);
  });

  it('admin reset: the admin role works; an API token holding every permission gets 403', async () => {
    const { username } = await enrolled();
    const userId = (await t.request({ method: 'GET', url: `/api/users/by-username/${username}`, token: admin })).json().data.id;
    const { FIXED_PERMISSIONS } = await import('../../packages/server/src/domain/access/permissions.js');
    const created = await t.request({
      method: 'POST',
      url: '/api/tokens',
      token: admin,
      payload: { name: 'all', permissions: [...FIXED_PERMISSIONS, 'content:*'] },
    });
    expect(created.statusCode).toBe(201);
    const apiToken = created.json().data.token;
    const denied = await t.request({ method: 'POST', url: `/api/admin/users/${userId}/mfa/reset`, token: apiToken });
    expect(denied.statusCode).toBe(403);
    expect((await login(username)).json().data.requiresMFA).toBe(true);
    const reset = await t.request({ method: 'POST', url: `/api/admin/users/${userId}/mfa/reset`, token: admin });
    expect(reset.statusCode).toBe(200);
    const after = (await login(username)).json().data;
    expect(after.token).toEqual(expect.any(String));
    expect(after.user.mfaEnabled).toBe(false);
    const unknown = await t.request({ method: 'POST', url: '/api/admin/users/no-such-user/mfa/reset', token: admin });
    expect(unknown.statusCode).toBe(404);
    const audit = (await t.request({ method: 'GET', url: '/api/audit?limit=200', token: admin })).json().data as Array<{
      type?: string;
      event?: string;
    }>;
    const types = audit.map((e) => e.type ?? e.event);
    expect(types).toEqual(expect.arrayContaining(['mfaEnable', 'mfaReset']));
  });
});

describe('callers and inputs', () => {
  it('an API token has no second factor to manage: status and setup are 403', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/tokens',
      token: admin,
      payload: { name: 'mfa-api', permissions: ['users:read'] },
    });
    const apiToken = created.json().data.token;
    expect((await t.request({ method: 'GET', url: '/api/auth/mfa/status', token: apiToken })).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp', token: apiToken })).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp' })).statusCode).toBe(401);
  });

  it('verify with a method the user has not set up is 400 INVALID_INPUT', async () => {
    const { username } = await enrolled();
    const res = await verify({ mfaToken: await mfaToken(username), code: '123456', method: 'email' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('INVALID_INPUT');
  });

  it('a user with MFA, backup codes, trusted devices and pending tokens can be deleted', async () => {
    const { username, secret } = await enrolled();
    await verify({ mfaToken: await mfaToken(username), code: code(secret), trustDevice: true, deviceId: DEVICE, deviceName: 'A' });
    await mfaToken(username, { deviceId: 'another-device-0123456789' });
    const id = (await t.request({ method: 'GET', url: `/api/users/by-username/${username}`, token: admin })).json().data.id;
    expect((await t.request({ method: 'DELETE', url: `/api/users/${id}`, token: admin })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/api/users/${id}`, token: admin })).statusCode).toBe(404);
    const db = t.app.services.database.db;
    for (const table of ['mfa_methods', 'mfa_backup_codes', 'mfa_tokens', 'trusted_devices'] as const) {
      const rows = await db.selectFrom(table).select('user_id').where('user_id', '=', id).execute();
      expect([table, rows.length]).toEqual([table, 0]);
    }
  });
});

describe('secrets stay inside', () => {
  it('after setup no response carries the TOTP secret, a stored hash or an unissued code', async () => {
    const { username, secret, session, backupCodes } = await enrolled();
    const bodies: string[] = [];
    const keep = async (p: Promise<{ body: string }>) => {
      const r = await p;
      bodies.push(r.body);
      return r;
    };
    const token = JSON.parse((await keep(login(username, { deviceId: DEVICE }))).body).data.mfaToken;
    await keep(verify({ mfaToken: token, code: code(secret), trustDevice: true, deviceId: DEVICE, deviceName: 'scan' }));
    await keep(t.request({ method: 'GET', url: '/api/auth/mfa/status', token: session }));
    await keep(t.request({ method: 'GET', url: '/api/auth/mfa/trusted-devices', token: session }));
    await keep(t.request({ method: 'GET', url: '/api/auth/me', token: session }));
    await keep(t.request({ method: 'GET', url: '/api/users', token: admin }));
    await keep(t.request({ method: 'GET', url: '/api/audit?limit=200', token: admin }));
    await keep(t.request({ method: 'POST', url: '/api/auth/mfa/setup/totp', token: session }));
    const all = bodies.join('\n');
    expect(all).not.toContain(secret);
    for (const c of backupCodes) expect(all).not.toContain(c);
    const db = t.app.services.database.db;
    const stored = [
      ...(await db.selectFrom('mfa_methods').select('secret_enc').execute()).map((r) => r.secret_enc),
      ...(await db.selectFrom('mfa_backup_codes').select('code_hash').execute()).map((r) => r.code_hash),
      ...(await db.selectFrom('mfa_tokens').select('token_hash').execute()).map((r) => r.token_hash),
      ...(await db.selectFrom('trusted_devices').select(['device_hash', 'device_id_enc']).execute()).flatMap((r) => [
        r.device_hash,
        r.device_id_enc,
      ]),
    ];
    expect(stored.length).toBeGreaterThan(0);
    for (const s of stored) if (s) expect(all).not.toContain(s);
    // At rest the secret is encrypted, never the base32 text.
    for (const s of stored) expect(s ?? '').not.toContain(secret);
  });
});

describe('cookie sessions', () => {
  it('with security.cookie, finishing the login at /auth/mfa/verify sets the session cookies', async () => {
    const app = await startTestApp({ security: { cookie: { secure: false, sameSite: 'strict' } } }, { now: () => new Date(clock) });
    try {
      const adminToken = await app.login(ADMIN.username, ADMIN.password);
      await app.request({
        method: 'POST',
        url: '/api/users',
        token: adminToken,
        payload: { username: 'c1', email: 'c1@example.com', password: PASSWORD },
      });
      const session = await app.login('c1', PASSWORD);
      const secret = (await app.request({ method: 'POST', url: '/api/auth/mfa/setup/totp', token: session })).json().data.secret;
      await app.request({ method: 'POST', url: '/api/auth/mfa/setup/totp/verify', token: session, payload: { code: code(secret) } });
      tick();
      const pending = await app.request({ method: 'POST', url: '/api/auth/login', payload: { username: 'c1', password: PASSWORD } });
      expect(pending.headers['set-cookie']).toBeUndefined();
      const res = await app.request({
        method: 'POST',
        url: '/api/auth/mfa/verify',
        payload: { mfaToken: pending.json().data.mfaToken, code: code(secret), method: 'totp' },
      });
      expect(res.statusCode).toBe(200);
      const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []).map((c) => c.split('=')[0]);
      expect(cookies).toEqual(expect.arrayContaining(['vellum_access', 'vellum_refresh', 'vellum_csrf']));
    } finally {
      await app.close();
    }
  });
});

describe('rate limit', () => {
  it('wrong codes past the login limit answer 429 with Retry-After', async () => {
    const limited = await startTestApp(
      { security: { rateLimit: { login: { windowMs: 60_000, max: 3 } } } },
      { now: () => new Date(clock) },
    );
    try {
      const u = 'limited';
      const made = await limited.request({
        method: 'POST',
        url: '/api/users',
        token: await limited.login(ADMIN.username, ADMIN.password),
        payload: { username: u, email: 'limited@example.com', password: PASSWORD },
      });
      expect(made.statusCode).toBe(201);
      const session = await limited.login(u, PASSWORD);
      const secret = (await limited.request({ method: 'POST', url: '/api/auth/mfa/setup/totp', token: session })).json().data.secret;
      await limited.request({ method: 'POST', url: '/api/auth/mfa/setup/totp/verify', token: session, payload: { code: code(secret) } });
      tick();
      const token = (await limited.request({ method: 'POST', url: '/api/auth/login', payload: { username: u, password: PASSWORD } })).json()
        .data.mfaToken;
      const wrong = code(secret) === '000000' ? '111111' : '000000';
      for (let i = 0; i < 3; i++) {
        const res = await limited.request({
          method: 'POST',
          url: '/api/auth/mfa/verify',
          payload: { mfaToken: token, code: wrong, method: 'totp' },
        });
        expect(res.statusCode).toBe(401);
      }
      const res = await limited.request({
        method: 'POST',
        url: '/api/auth/mfa/verify',
        payload: { mfaToken: token, code: code(secret), method: 'totp' },
      });
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      const backup = await limited.request({
        method: 'POST',
        url: '/api/auth/mfa/verify-backup',
        payload: { mfaToken: token, code: 'ABCDEFGH' },
      });
      expect(backup.statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
