import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, ADMIN, type TestApp } from '../helpers/app.js';
import { useMailCatcher } from '../helpers/mail-catcher.js';
import { totpCode } from '../helpers/totp.js';

const mail = useMailCatcher();

/** A clock the test moves: code and token expiry follow it. */
let clock = Date.parse('2026-03-01T10:00:00.000Z');
const tick = (ms = 30_000) => (clock += ms);

let t: TestApp;
let admin: string;
useAdminApp(
  // A generous limit: this file's wrong codes all come from one address; the send limit has its own app.
  () =>
    startTestApp(
      {
        mail: { smtpUrl: mail.url, from: 'Vellum <cms@example.com>' },
        security: { rateLimit: { login: { windowMs: 900_000, max: 1000 } } },
      },
      { now: () => new Date(clock) },
    ),
  (app, token) => ((t = app), (admin = token)),
);

/** Every answer of this file, scanned at the end for the mailed codes. */
const answers: string[] = [];
const codesMailed: string[] = [];
async function request(opts: InjectOptions & { token?: string }, app: TestApp = t) {
  const res = await app.request(opts);
  answers.push(res.body);
  return res;
}

let n = 0;
const PASSWORD = 'mfa-email-password-1';

async function newUser(app: TestApp = t, adminToken = admin): Promise<{ username: string; email: string }> {
  const username = `mfamail${++n}`;
  const email = `${username}@example.com`;
  const payload = { username, email, password: PASSWORD, firstName: '<b>Eve</b>' };
  const res = await request({ method: 'POST', url: '/api/users', token: adminToken, payload }, app);
  expect(res.statusCode).toBe(201);
  return { username, email };
}

const login = (username: string, app: TestApp = t) =>
  request({ method: 'POST', url: '/api/auth/login', payload: { username, password: PASSWORD } }, app);

/** The code of the n-th mail to that address (mails leave after the answer). */
async function mailedCode(email: string, count: number): Promise<string> {
  const m = await mail.waitFor(email, count);
  const found = /code (?:to [^.]*? )?is (\d{6})\./.exec(m.decoded);
  expect(found, m.decoded).not.toBeNull();
  codesMailed.push(found![1]);
  return found![1];
}

/** A user with email codes enabled through a session (one mail so far). */
async function enrolled(app: TestApp = t, adminToken = admin) {
  const user = await newUser(app, adminToken);
  const session = (await login(user.username, app)).json().data.token as string;
  const sent = await request({ method: 'POST', url: '/api/auth/mfa/setup/email', token: session }, app);
  expect(sent.statusCode).toBe(200);
  const code = await mailedCode(user.email, 1);
  const done = await request({ method: 'POST', url: '/api/auth/mfa/setup/email/verify', token: session, payload: { code } }, app);
  expect(done.statusCode).toBe(200);
  return { ...user, session, backupCodes: done.json().data.backupCodes as string[] };
}

async function mfaToken(username: string): Promise<string> {
  const res = await login(username);
  expect(res.statusCode).toBe(200);
  expect(res.json().data.requiresMFA).toBe(true);
  return res.json().data.mfaToken as string;
}

const verify = (payload: Record<string, unknown>) =>
  request({ method: 'POST', url: '/api/auth/mfa/verify', payload: { method: 'email', ...payload } });
const send = (token: string) => request({ method: 'POST', url: '/api/auth/mfa/email/send', payload: { mfaToken: token } });

describe('email code setup', () => {
  it('by session: the code is mailed (never answered), the first method issues backup codes, audited as mfaEnable email', async () => {
    const user = await newUser();
    const session = (await login(user.username)).json().data.token as string;
    const sent = await request({ method: 'POST', url: '/api/auth/mfa/setup/email', token: session });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ data: { sent: true } });
    const m = await mail.waitFor(user.email, 1);
    expect(m.decoded).toContain('Subject: Your Vellum code');
    // The name is data in the HTML part, never markup.
    expect(m.decoded).toContain('&lt;b&gt;Eve&lt;/b&gt;');
    expect(m.decoded).not.toContain('<p>Hello <b>Eve</b>');
    const code = await mailedCode(user.email, 1);
    const wrong = await request({
      method: 'POST',
      url: '/api/auth/mfa/setup/email/verify',
      token: session,
      payload: { code: code === '000000' ? '111111' : '000000' },
    });
    expect(wrong.statusCode).toBe(401);
    const done = await request({ method: 'POST', url: '/api/auth/mfa/setup/email/verify', token: session, payload: { code } });
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toEqual({ enabled: true, backupCodes: expect.any(Array) });
    expect(done.json().data.backupCodes).toHaveLength(10);
    const status = (await request({ method: 'GET', url: '/api/auth/mfa/status', token: session })).json().data;
    expect(status.methods).toEqual(['email']);
    const again = await request({ method: 'POST', url: '/api/auth/mfa/setup/email', token: session });
    expect(again.statusCode).toBe(409);
    const audit = (await request({ method: 'GET', url: '/api/audit?type=mfaEnable&limit=100', token: admin })).json().data as Array<{
      targetId?: string;
      target?: string;
      details?: { method?: string };
    }>;
    expect(audit.some((e) => e.details?.method === 'email')).toBe(true);
  });

  it('by setup token under mfaRequired: methods offer totp and email; verify ends in tokens and spends the setup token', async () => {
    await request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { mfaRequired: true } });
    try {
      const user = await newUser();
      const body = (await login(user.username)).json().data;
      expect(body.requiresMFASetup).toBe(true);
      expect(body.methods).toEqual(['totp', 'email']);
      const headers = { 'x-mfa-setup-token': body.setupToken };
      expect((await request({ method: 'POST', url: '/api/auth/mfa/setup/email', headers })).json()).toEqual({ data: { sent: true } });
      const code = await mailedCode(user.email, 1);
      const done = await request({ method: 'POST', url: '/api/auth/mfa/setup/email/verify', headers, payload: { code } });
      expect(done.statusCode).toBe(200);
      expect(done.json().data).toEqual({
        enabled: true,
        backupCodes: expect.any(Array),
        token: expect.any(String),
        refreshToken: expect.any(String),
        expiresAt: expect.any(String),
        user: expect.objectContaining({ username: user.username, mfaEnabled: true }),
      });
      expect((await request({ method: 'GET', url: '/api/auth/me', token: done.json().data.token })).statusCode).toBe(200);
      const after = await request({ method: 'POST', url: '/api/auth/mfa/setup/email', headers });
      expect(after.statusCode).toBe(401);
      expect(after.json().error.code).toBe('MFA_TOKEN_EXPIRED');
    } finally {
      await request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { mfaRequired: false } });
    }
  });

  it('a code older than 10 minutes is refused; a fresh one works', async () => {
    const user = await newUser();
    const session = (await login(user.username)).json().data.token as string;
    await request({ method: 'POST', url: '/api/auth/mfa/setup/email', token: session });
    const old = await mailedCode(user.email, 1);
    tick(10 * 60_000 + 1000);
    const late = await request({ method: 'POST', url: '/api/auth/mfa/setup/email/verify', token: session, payload: { code: old } });
    expect(late.statusCode).toBe(401);
    expect(late.json().error.code).toBe('UNAUTHORIZED');
    await request({ method: 'POST', url: '/api/auth/mfa/setup/email', token: session });
    const fresh = await mailedCode(user.email, 2);
    const done = await request({ method: 'POST', url: '/api/auth/mfa/setup/email/verify', token: session, payload: { code: fresh } });
    expect(done.statusCode).toBe(200);
  });
});

describe('email code login', () => {
  it('email as the only method: login answers requiresMFA and mails a code; verify with it opens a session', async () => {
    const user = await enrolled();
    tick();
    const res = await login(user.username);
    expect(res.json().data).toEqual({ requiresMFA: true, mfaToken: expect.any(String), methods: ['email'], expiresAt: expect.any(String) });
    const code = await mailedCode(user.email, 2);
    const done = await verify({ mfaToken: res.json().data.mfaToken, code });
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toEqual(
      expect.objectContaining({ token: expect.any(String), user: expect.objectContaining({ username: user.username }) }),
    );
  });

  it('email/send mails a fresh code and the previous one stops working', async () => {
    const user = await enrolled();
    tick();
    const token = await mfaToken(user.username);
    const first = await mailedCode(user.email, 2);
    const sent = await send(token);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ data: { sent: true } });
    const second = await mailedCode(user.email, 3);
    // Two random codes are equal once in a million draws; then there is no old code to refuse.
    if (first !== second) expect((await verify({ mfaToken: token, code: first })).statusCode).toBe(401);
    const done = await verify({ mfaToken: token, code: second });
    expect(done.statusCode).toBe(200);
  });

  it('a wrong code is 401 UNAUTHORIZED; the fifth burns the mfaToken, and email/send then says MFA_TOKEN_EXPIRED', async () => {
    const user = await enrolled();
    tick();
    const token = await mfaToken(user.username);
    const code = await mailedCode(user.email, 2);
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await verify({ mfaToken: token, code: wrongCode });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('UNAUTHORIZED');
    }
    const burned = await verify({ mfaToken: token, code });
    expect(burned.statusCode).toBe(401);
    expect(burned.json().error.code).toBe('MFA_TOKEN_EXPIRED');
    const resend = await send(token);
    expect(resend.statusCode).toBe(401);
    expect(resend.json().error.code).toBe('MFA_TOKEN_EXPIRED');
  });

  it('with TOTP and email both enabled, login mails nothing; email/send does; a used code is refused', async () => {
    const user = await enrolled();
    const totp = (await request({ method: 'POST', url: '/api/auth/mfa/setup/totp', token: user.session })).json().data.secret as string;
    const setupCode = totpCode(totp, clock);
    expect(
      (await request({ method: 'POST', url: '/api/auth/mfa/setup/totp/verify', token: user.session, payload: { code: setupCode } }))
        .statusCode,
    ).toBe(200);
    tick();
    const body = (await login(user.username)).json().data;
    expect(body.methods).toEqual(['email', 'totp']);
    expect((await send(body.mfaToken)).statusCode).toBe(200);
    // The setup mail and this one: the login itself mailed nothing.
    const code = await mailedCode(user.email, 2);
    expect(mail.mails.filter((m) => m.to.includes(user.email))).toHaveLength(2);
    expect((await verify({ mfaToken: body.mfaToken, code })).statusCode).toBe(200);
    tick();
    const next = await mfaToken(user.username);
    const used = await verify({ mfaToken: next, code });
    expect(used.statusCode).toBe(401);
    expect(used.json().error.code).toBe('UNAUTHORIZED');
  });

  it('email/send for a user without email codes is 400; disable {method: email, password} removes the method', async () => {
    const user = await enrolled();
    const disabled = await request({
      method: 'POST',
      url: '/api/auth/mfa/disable',
      token: user.session,
      payload: { method: 'email', password: PASSWORD },
    });
    expect(disabled.statusCode).toBe(200);
    const status = (await request({ method: 'GET', url: '/api/auth/mfa/status', token: user.session })).json().data;
    expect(status.methods).toEqual([]);
    tick();
    expect((await login(user.username)).json().data.token).toEqual(expect.any(String));
  });

  it('no answer of this file carried a mailed code', () => {
    expect(codesMailed.length).toBeGreaterThan(5);
    const everything = answers.join('\n');
    for (const c of codesMailed) expect(everything).not.toMatch(new RegExp(`\\b${c}\\b`));
  });
});

describe('email code limits and configuration', () => {
  it('sends are rate-limited per account: email/send is 429 with Retry-After, a login then mails nothing', async () => {
    const app = await startTestApp(
      { mail: { smtpUrl: mail.url }, security: { rateLimit: { login: { windowMs: 900_000, max: 3 } } } },
      { now: () => new Date(clock) },
    );
    try {
      const adminToken = await app.login(ADMIN.username, ADMIN.password);
      // The setup mail, the login's and one email/send: the next send is refused.
      const user = await enrolled(app, adminToken);
      const token = (await login(user.username, app)).json().data.mfaToken as string;
      await mailedCode(user.email, 2);
      expect((await request({ method: 'POST', url: '/api/auth/mfa/email/send', payload: { mfaToken: token } }, app)).statusCode).toBe(200);
      const last = await mailedCode(user.email, 3);
      const limited = await request({ method: 'POST', url: '/api/auth/mfa/email/send', payload: { mfaToken: token } }, app);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // A login still answers requiresMFA but mails no new code: the last one mailed still works.
      const next = (await login(user.username, app)).json().data;
      expect(next.requiresMFA).toBe(true);
      const done = await request(
        { method: 'POST', url: '/api/auth/mfa/verify', payload: { method: 'email', mfaToken: next.mfaToken, code: last } },
        app,
      );
      expect(done.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('without mail.smtpUrl, mfaRequired offers only totp and email setup is 501', async () => {
    const app = await startTestApp({}, { now: () => new Date(clock) });
    try {
      const adminToken = await app.login(ADMIN.username, ADMIN.password);
      const user = await newUser(app, adminToken);
      await request({ method: 'PUT', url: '/api/config/settings', token: adminToken, payload: { mfaRequired: true } }, app);
      const body = (await login(user.username, app)).json().data;
      expect(body.methods).toEqual(['totp']);
      const setup = await request(
        { method: 'POST', url: '/api/auth/mfa/setup/email', headers: { 'x-mfa-setup-token': body.setupToken } },
        app,
      );
      expect(setup.statusCode).toBe(501);
    } finally {
      await app.close();
    }
  });
});
