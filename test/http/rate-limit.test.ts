import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';

const RULE = { security: { rateLimit: { login: { windowMs: 60_000, max: 3 } } } };
const id = () => randomBytes(4).toString('hex');

function attempt(t: TestApp, username: string, password: string, opts: { ip?: string; xff?: string } = {}) {
  return t.request({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password },
    remoteAddress: opts.ip ?? '10.0.0.1',
    headers: opts.xff ? { 'x-forwarded-for': opts.xff } : {},
  });
}

async function withApp(config: Record<string, unknown>, fn: (t: TestApp) => Promise<void>) {
  const t = await startTestApp(config);
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

describe('login rate limit', () => {
  it('after max failures for a username: 429 with Retry-After, even with the right password', () =>
    withApp(RULE, async (t) => {
      for (let i = 0; i < 3; i++) expect((await attempt(t, ADMIN.username, 'wrong-password', { ip: `10.1.0.${i}` })).statusCode).toBe(401);
      const res = await attempt(t, ADMIN.username, ADMIN.password, { ip: '10.1.0.99' });
      expect(res.statusCode).toBe(429);
      expect(res.json().error.code).toBe('RATE_LIMITED');
      expect(res.json().error.retryAfter).toBeGreaterThan(0);
      expect(res.json().error.retryAfter).toBeLessThanOrEqual(60);
      expect(res.headers['retry-after']).toBe(String(res.json().error.retryAfter));
    }));

  it('varying the username from one client IP does not buy fresh attempts', () =>
    withApp(RULE, async (t) => {
      for (let i = 0; i < 3; i++) expect((await attempt(t, `nobody-${i}`, 'wrong-password', { ip: '10.2.0.1' })).statusCode).toBe(401);
      expect((await attempt(t, 'someone-else', 'wrong-password', { ip: '10.2.0.1' })).statusCode).toBe(429);
      expect((await attempt(t, ADMIN.username, ADMIN.password, { ip: '10.2.0.1' })).statusCode).toBe(429);
      // Another client is not affected.
      expect((await attempt(t, ADMIN.username, ADMIN.password, { ip: '10.2.0.2' })).statusCode).toBe(200);
    }));

  it('a spoofed X-Forwarded-For does not change the client IP unless trustProxy is set', () =>
    withApp(RULE, async (t) => {
      for (let i = 0; i < 3; i++) await attempt(t, `ghost-${i}`, 'wrong-password', { ip: '10.3.0.1', xff: `203.0.113.${i}` });
      expect((await attempt(t, 'ghost-9', 'wrong-password', { ip: '10.3.0.1', xff: '203.0.113.77' })).statusCode).toBe(429);
    }));

  it('with trustProxy the forwarded address is the client, and the username limit still holds', () =>
    withApp({ ...RULE, server: { trustProxy: true } }, async (t) => {
      for (let i = 0; i < 3; i++) await attempt(t, `proxied-${i}`, 'wrong-password', { ip: '10.4.0.1', xff: '203.0.113.5' });
      expect((await attempt(t, 'proxied-x', 'wrong-password', { ip: '10.4.0.1', xff: '203.0.113.5' })).statusCode).toBe(429);
      expect((await attempt(t, 'proxied-x', 'wrong-password', { ip: '10.4.0.1', xff: '203.0.113.6' })).statusCode).toBe(401);
      for (let i = 0; i < 3; i++) await attempt(t, 'target', 'wrong-password', { ip: '10.4.0.1', xff: `198.51.100.${i}` });
      expect((await attempt(t, 'target', 'wrong-password', { ip: '10.4.0.1', xff: '198.51.100.50' })).statusCode).toBe(429);
    }));

  it('a success resets the username count', () =>
    withApp(RULE, async (t) => {
      for (let i = 0; i < 2; i++) await attempt(t, ADMIN.username, 'wrong-password', { ip: `10.5.0.${i}` });
      expect((await attempt(t, ADMIN.username, ADMIN.password, { ip: '10.5.0.10' })).statusCode).toBe(200);
      for (let i = 0; i < 2; i++) expect((await attempt(t, ADMIN.username, 'wrong-password', { ip: `10.5.1.${i}` })).statusCode).toBe(401);
      expect((await attempt(t, ADMIN.username, ADMIN.password, { ip: '10.5.1.10' })).statusCode).toBe(200);
    }));

  it('every spelling that reaches one account shares one counter (username, email, any case)', () =>
    withApp(RULE, async (t) => {
      for (let i = 0; i < 3; i++) expect((await attempt(t, ADMIN.username, 'wrong-password', { ip: `10.8.0.${i}` })).statusCode).toBe(401);
      const byEmail = await attempt(t, ADMIN.email, ADMIN.password, { ip: '10.8.0.99' });
      expect(byEmail.statusCode).toBe(429);
      expect(byEmail.json().error.code).toBe('RATE_LIMITED');
      expect((await attempt(t, ADMIN.email.toUpperCase(), ADMIN.password, { ip: '10.8.0.98' })).statusCode).toBe(429);
    }));

  it('failures through the email address lock the username too', () =>
    withApp(RULE, async (t) => {
      for (let i = 0; i < 3; i++) await attempt(t, ADMIN.email.toUpperCase(), 'wrong-password', { ip: `10.9.0.${i}` });
      expect((await attempt(t, ADMIN.username, ADMIN.password, { ip: '10.9.0.99' })).statusCode).toBe(429);
    }));

  it('a success under one spelling resets the count of every spelling of that account', () =>
    withApp(RULE, async (t) => {
      for (let i = 0; i < 2; i++) await attempt(t, ADMIN.email, 'wrong-password', { ip: `10.10.0.${i}` });
      expect((await attempt(t, ADMIN.username, ADMIN.password, { ip: '10.10.0.10' })).statusCode).toBe(200);
      for (let i = 0; i < 2; i++) expect((await attempt(t, ADMIN.email, 'wrong-password', { ip: `10.10.1.${i}` })).statusCode).toBe(401);
      expect((await attempt(t, ADMIN.email, ADMIN.password, { ip: '10.10.1.10' })).statusCode).toBe(200);
    }));

  it('names that match no account are counted trimmed and lower-cased', () =>
    withApp(RULE, async (t) => {
      const spellings = ['Nobody', ' nobody', 'NOBODY '];
      for (const [i, name] of spellings.entries())
        expect((await attempt(t, name, 'wrong-password', { ip: `10.11.0.${i}` })).statusCode).toBe(401);
      expect((await attempt(t, 'nobody', 'wrong-password', { ip: '10.11.0.99' })).statusCode).toBe(429);
    }));

  it('limits password-reset requests per address and per client', () =>
    withApp(RULE, async (t) => {
      const reset = (email: string, ip: string) =>
        t.request({ method: 'POST', url: '/api/auth/request-reset', payload: { email }, remoteAddress: ip });
      for (let i = 0; i < 3; i++) expect((await reset('victim@example.com', `10.6.0.${i}`)).statusCode).toBe(200);
      expect((await reset('victim@example.com', '10.6.0.50')).statusCode).toBe(429);
      for (let i = 0; i < 3; i++) await reset(`other${i}@example.com`, '10.6.1.1');
      expect((await reset('fresh@example.com', '10.6.1.1')).statusCode).toBe(429);
    }));

  it('with Redis, two nodes share the counters', async () => {
    const config = { ...RULE, redis: { url: 'redis://127.0.0.1:6379' } };
    const a = await startTestApp(config);
    const b = await startTestApp(config);
    const user = `shared-${id()}`;
    const ip = `10.7.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    try {
      expect((await attempt(a, user, 'wrong-password', { ip: `${ip}1` })).statusCode).toBe(401);
      expect((await attempt(b, user, 'wrong-password', { ip: `${ip}2` })).statusCode).toBe(401);
      expect((await attempt(a, user, 'wrong-password', { ip: `${ip}3` })).statusCode).toBe(401);
      expect((await attempt(b, user, 'wrong-password', { ip: `${ip}4` })).statusCode).toBe(429);
      expect((await attempt(a, user, 'wrong-password', { ip: `${ip}5` })).statusCode).toBe(429);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
