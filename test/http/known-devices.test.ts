import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';

// Known (sign-in) devices: a device that signed in to an account before is not refused by that
// account's failure limit (docs/api.md, "Rate limits"). Not the MFA trusted devices.
const RULE = { security: { rateLimit: { login: { windowMs: 60_000, max: 3 } } } };
const DAY = 86_400_000;
const newDevice = () => randomBytes(16).toString('hex');

function attempt(
  t: TestApp,
  password: string,
  opts: { ip: string; deviceId?: string; username?: string },
): Promise<LightMyRequestResponse> {
  const payload: Record<string, unknown> = { username: opts.username ?? ADMIN.username, password };
  if (opts.deviceId !== undefined) payload.deviceId = opts.deviceId;
  return t.request({ method: 'POST', url: '/api/auth/login', payload, remoteAddress: opts.ip });
}

/** An attacker spends the account's attempts from addresses of its own. */
async function lockAccount(t: TestApp, prefix: string, opts: { username?: string; deviceId?: () => string } = {}) {
  for (let i = 0; i < 3; i++) {
    const res = await attempt(t, 'wrong-password', { ip: `${prefix}.${i}`, username: opts.username, deviceId: opts.deviceId?.() });
    expect(res.statusCode).toBe(401);
  }
  expect((await attempt(t, 'wrong-password', { ip: `${prefix}.50`, username: opts.username })).statusCode).toBe(429);
}

async function withApp(fn: (t: TestApp, clock: { at: number }) => Promise<void>) {
  const clock = { at: Date.parse('2030-01-01T00:00:00Z') };
  const t = await startTestApp(RULE, { now: () => new Date(clock.at) });
  try {
    await fn(t, clock);
  } finally {
    await t.close();
  }
}

describe('known devices and the per-account sign-in limit', () => {
  it("the owner's device gets in after an attacker locked the account from other addresses", () =>
    withApp(async (t) => {
      const device = newDevice();
      expect((await attempt(t, ADMIN.password, { ip: '10.20.0.1', deviceId: device })).statusCode).toBe(200);
      await lockAccount(t, '10.20.1');
      expect((await attempt(t, ADMIN.password, { ip: '10.20.0.2', deviceId: device })).statusCode).toBe(200);
    }));

  it('an attacker with a fresh deviceId or none is still refused: 429 RATE_LIMITED with Retry-After', () =>
    withApp(async (t) => {
      const device = newDevice();
      expect((await attempt(t, ADMIN.password, { ip: '10.21.0.1', deviceId: device })).statusCode).toBe(200);
      await lockAccount(t, '10.21.1', { deviceId: newDevice });
      for (const deviceId of [newDevice(), undefined, device.toUpperCase()]) {
        const res = await attempt(t, ADMIN.password, { ip: '10.21.2.1', deviceId });
        expect(res.statusCode).toBe(429);
        expect(res.json().error.code).toBe('RATE_LIMITED');
        expect(res.headers['retry-after']).toBe(String(res.json().error.retryAfter));
        expect(res.json().error.retryAfter).toBeGreaterThan(0);
      }
    }));

  it("a success through the exemption keeps the account's count: the attacker gets no fresh attempts", () =>
    withApp(async (t) => {
      const device = newDevice();
      expect((await attempt(t, ADMIN.password, { ip: '10.22.0.1', deviceId: device })).statusCode).toBe(200);
      await lockAccount(t, '10.22.1');
      expect((await attempt(t, ADMIN.password, { ip: '10.22.0.1', deviceId: device })).statusCode).toBe(200);
      expect((await attempt(t, ADMIN.password, { ip: '10.22.2.1' })).statusCode).toBe(429);
    }));

  it('a device known for one account is not exempt on another', () =>
    withApp(async (t) => {
      const admin = await t.login(ADMIN.username, ADMIN.password);
      const other = { username: 'editor1', email: 'editor1@example.com', password: 'editor-password-1', role: 'editor' };
      expect((await t.request({ method: 'POST', url: '/api/users', token: admin, payload: other })).statusCode).toBe(201);
      const device = newDevice();
      expect((await attempt(t, ADMIN.password, { ip: '10.23.0.1', deviceId: device })).statusCode).toBe(200);
      await lockAccount(t, '10.23.1', { username: other.username });
      expect((await attempt(t, other.password, { ip: '10.23.0.2', deviceId: device, username: other.username })).statusCode).toBe(429);
    }));

  it('a device is remembered for 30 days from its last success, then no longer exempt', () =>
    withApp(async (t, clock) => {
      const start = clock.at;
      const device = newDevice();
      expect((await attempt(t, ADMIN.password, { ip: '10.24.0.1', deviceId: device })).statusCode).toBe(200);
      // A success 20 days later refreshes the 30 days.
      clock.at = start + 20 * DAY;
      expect((await attempt(t, ADMIN.password, { ip: '10.24.0.1', deviceId: device })).statusCode).toBe(200);
      clock.at = start + 45 * DAY;
      await lockAccount(t, '10.24.1');
      expect((await attempt(t, ADMIN.password, { ip: '10.24.0.1', deviceId: device })).statusCode).toBe(200);
      // 31 days after that last success the device is a stranger again.
      clock.at = start + 76 * DAY;
      await lockAccount(t, '10.24.2');
      expect((await attempt(t, ADMIN.password, { ip: '10.24.0.1', deviceId: device })).statusCode).toBe(429);
    }));

  it('the per-IP limit still applies to a known device', () =>
    withApp(async (t) => {
      const device = newDevice();
      expect((await attempt(t, ADMIN.password, { ip: '10.25.0.1', deviceId: device })).statusCode).toBe(200);
      for (let i = 0; i < 3; i++) await attempt(t, 'wrong-password', { ip: '10.25.0.9', username: `nobody-${i}` });
      const res = await attempt(t, ADMIN.password, { ip: '10.25.0.9', deviceId: device });
      expect(res.statusCode).toBe(429);
      expect(res.json().error.code).toBe('RATE_LIMITED');
    }));

  it("failures from a known device do not lock the account for others; they spend the device's own attempts", () =>
    withApp(async (t) => {
      const device = newDevice();
      expect((await attempt(t, ADMIN.password, { ip: '10.26.0.1', deviceId: device })).statusCode).toBe(200);
      for (let i = 0; i < 3; i++)
        expect((await attempt(t, 'wrong-password', { ip: `10.26.1.${i}`, deviceId: device })).statusCode).toBe(401);
      expect((await attempt(t, ADMIN.password, { ip: '10.26.2.1' })).statusCode).toBe(200);
      expect((await attempt(t, ADMIN.password, { ip: '10.26.2.2', deviceId: device })).statusCode).toBe(429);
    }));

  it('a deviceId shorter than 16 characters is never remembered', () =>
    withApp(async (t) => {
      expect((await attempt(t, ADMIN.password, { ip: '10.28.0.1', deviceId: 'laptop' })).statusCode).toBe(200);
      await lockAccount(t, '10.28.1');
      expect((await attempt(t, ADMIN.password, { ip: '10.28.0.1', deviceId: 'laptop' })).statusCode).toBe(429);
    }));

  it('stores a SHA-256 of the deviceId, never the deviceId itself', () =>
    withApp(async (t) => {
      const device = newDevice();
      expect((await attempt(t, ADMIN.password, { ip: '10.27.0.1', deviceId: device })).statusCode).toBe(200);
      const rows = await t.app.services.database.db.selectFrom('known_devices').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(device);
      expect(rows[0].device_hash).toBe(createHash('sha256').update(device).digest('hex'));
    }));
});
