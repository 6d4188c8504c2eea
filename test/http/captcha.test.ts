import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';

/** A stand-in for the provider's verify endpoint on loopback: accepts the token "good" for secret "s3cret". */
let stub: Server;
let stubUrl: string;
const seen: URLSearchParams[] = [];
let t: TestApp;

beforeAll(async () => {
  stub = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      seen.push(form);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ success: form.get('secret') === 's3cret' && form.get('response') === 'good' }));
    });
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  stubUrl = `http://127.0.0.1:${(stub.address() as { port: number }).port}/siteverify`;
  t = await startTestApp({ security: { captcha: { provider: 'turnstile', secret: 's3cret', verifyUrl: stubUrl } } });
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => stub.close(r));
});

const login = (payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/auth/login', payload, remoteAddress: '10.9.9.9' });

describe('captcha', () => {
  it('login needs a token the provider accepts; the secret and client IP are sent server-side', async () => {
    const missing = await login({ username: ADMIN.username, password: ADMIN.password });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details).toEqual([{ field: 'captchaToken', message: 'is required' }]);
    const refused = await login({ username: ADMIN.username, password: ADMIN.password, captchaToken: 'bad' });
    expect(refused.statusCode).toBe(400);
    const ok = await login({ username: ADMIN.username, password: ADMIN.password, captchaToken: 'good' });
    expect(ok.statusCode).toBe(200);
    const last = seen[seen.length - 1];
    expect([last.get('secret'), last.get('response'), last.get('remoteip')]).toEqual(['s3cret', 'good', '10.9.9.9']);
  });

  it('request-reset needs it too', async () => {
    const res = await t.request({ method: 'POST', url: '/api/auth/request-reset', payload: { email: 'a@example.com' } });
    expect(res.statusCode).toBe(400);
    expect(
      (await t.request({ method: 'POST', url: '/api/auth/request-reset', payload: { email: 'a@example.com', captchaToken: 'good' } }))
        .statusCode,
    ).toBe(200);
  });

  it('fails closed when the provider cannot be reached', async () => {
    const down = await startTestApp({
      security: { captcha: { provider: 'hcaptcha', secret: 's3cret', verifyUrl: 'http://127.0.0.1:1/siteverify' } },
    });
    try {
      const res = await down.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: ADMIN.username, password: ADMIN.password, captchaToken: 'good' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details[0]).toEqual({ field: 'captchaToken', message: 'could not be verified' });
    } finally {
      await down.close();
    }
  });

  it('an unknown provider is a config problem', async () => {
    await expect(startTestApp({ security: { captcha: { provider: 'recapture', secret: 'x' } } })).rejects.toThrow(
      /security.captcha.provider/,
    );
  });
});
