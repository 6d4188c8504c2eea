import { describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { useMailCatcher } from '../helpers/mail-catcher.js';
import { spyQueries } from '../helpers/query-spy.js';

let t: TestApp;
let admin: string;
const mail = useMailCatcher();
let clock = new Date('2026-03-01T10:00:00.000Z');
const PASSWORD = 'user-password-1';
let n = 0;

const tokenIn = (text: string) => /\/studio\/(?:reset-password|accept-invite)\?token=([0-9A-Za-z]{43})/.exec(text)?.[1] as string;
const post = (url: string, payload: Record<string, unknown>, token?: string) => t.request({ method: 'POST', url, payload, token });

async function newUser(extra: Record<string, unknown> = {}) {
  const username = `reset${++n}`;
  const res = await post(
    '/api/users',
    { username, email: `${username}@example.com`, password: PASSWORD, firstName: '<b>Eve</b>', ...extra },
    admin,
  );
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().data.id as string, username, email: `${username}@example.com` };
}

useAdminApp(
  () =>
    startTestApp(
      { mail: { smtpUrl: mail.url, from: 'Vellum <cms@example.com>' }, server: { publicUrl: 'https://cms.example' } },
      { now: () => clock },
    ),
  (app, token) => {
    t = app;
    admin = token;
  },
);

describe('password reset', () => {
  it('mails a single-use link (text and escaped HTML); the link sets the password and ends all sessions', async () => {
    const u = await newUser();
    const session = await t.login(u.username, PASSWORD);
    const res = await post('/api/auth/request-reset', { email: u.email.toUpperCase() });
    expect(res.json()).toEqual({ data: { success: true } });
    const m = await mail.waitFor(u.email);
    expect(m.decoded).toContain('Subject: Reset your Vellum password');
    expect(m.decoded).toContain('From: Vellum <cms@example.com>');
    expect(m.decoded).toContain('&lt;b&gt;Eve&lt;/b&gt;');
    expect(m.decoded).not.toContain('<b>Eve</b> ');
    const token = tokenIn(m.decoded);
    expect(m.decoded).toContain(`https://cms.example/studio/reset-password?token=${token}`);
    expect((await post('/api/auth/verify-reset-token', { token })).json()).toEqual({ data: { valid: true } });
    const weak = await post('/api/auth/reset-password', { token, password: 'short' });
    expect(weak.statusCode).toBe(422);
    const ok = await post('/api/auth/reset-password', { token, password: 'brand-new-password' });
    expect(ok.json()).toEqual({ data: { success: true } });
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: session })).statusCode).toBe(401);
    expect(await t.login(u.username, 'brand-new-password')).toBeTruthy();
    // Single use.
    expect((await post('/api/auth/verify-reset-token', { token })).json()).toEqual({ data: { valid: false } });
    const again = await post('/api/auth/reset-password', { token, password: 'another-password-9' });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('INVALID_INPUT');
  });

  it('answers the same for unknown addresses and sends nothing', async () => {
    const marker = await newUser();
    const before = mail.mails.length;
    const res = await post('/api/auth/request-reset', { email: 'nobody@example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { success: true } });
    // A mail for it would go out after the answer, ahead of the next request's: once the next
    // request's mail is in, one for the unknown address would be too.
    await post('/api/auth/request-reset', { email: marker.email });
    await mail.waitFor(marker.email);
    expect(mail.mails.slice(before).flatMap((m) => m.to)).toEqual([marker.email]);
  });

  it('links expire after one hour', async () => {
    const u = await newUser();
    await post('/api/auth/request-reset', { email: u.email });
    const token = tokenIn((await mail.waitFor(u.email)).decoded);
    clock = new Date(clock.getTime() + 61 * 60_000);
    expect((await post('/api/auth/verify-reset-token', { token })).json().data.valid).toBe(false);
    expect((await post('/api/auth/reset-password', { token, password: 'brand-new-password' })).statusCode).toBe(400);
    // The admin's access token aged out with the clock too.
    admin = await t.login(ADMIN.username, ADMIN.password);
  });

  it("using one link spends the user's other open links", async () => {
    const u = await newUser();
    await post('/api/auth/request-reset', { email: u.email });
    await post('/api/auth/request-reset', { email: u.email });
    const first = tokenIn((await mail.waitFor(u.email, 1)).decoded);
    const second = tokenIn((await mail.waitFor(u.email, 2)).decoded);
    expect((await post('/api/auth/reset-password', { token: second, password: 'brand-new-password' })).statusCode).toBe(200);
    expect((await post('/api/auth/reset-password', { token: first, password: 'other-new-password' })).statusCode).toBe(400);
  });

  it('garbage tokens are invalid, never an error', async () => {
    expect((await post('/api/auth/verify-reset-token', { token: "' or 1=1 --" })).json()).toEqual({ data: { valid: false } });
    expect((await post('/api/auth/reset-password', { token: 'x'.repeat(43), password: 'brand-new-password' })).statusCode).toBe(400);
  });
});

describe('invitations', () => {
  it('users:invite creates an inactive user whose mailed link sets the password and activates it', async () => {
    const inviterName = `inviter${++n}`;
    await post(
      '/api/users',
      { username: inviterName, email: `${inviterName}@example.com`, password: PASSWORD, role: 'viewer', permissions: ['users:invite'] },
      admin,
    );
    const inviter = await t.login(inviterName, PASSWORD);
    const res = await post('/api/users/invite', { username: 'newbie', email: 'newbie@example.com', role: 'writer' }, inviter);
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ username: 'newbie', active: false, role: 'writer' });
    const m = await mail.waitFor('newbie@example.com');
    expect(m.decoded).toContain('Subject: Your invitation to Vellum');
    const token = tokenIn(m.decoded);
    expect((await post('/api/auth/login', { username: 'newbie', password: 'anything-at-all' })).statusCode).toBe(401);
    expect((await post('/api/auth/reset-password', { token, password: 'newbie-password-1' })).statusCode).toBe(200);
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token: await t.login('newbie', 'newbie-password-1') });
    expect(me.json().data).toMatchObject({ username: 'newbie', active: true, role: 'writer' });
    // An inviter cannot hand out more than it holds, and a viewer without users:invite cannot invite.
    expect((await post('/api/users/invite', { username: 'boss', email: 'boss@example.com', role: 'admin' }, inviter)).statusCode).toBe(403);
    const viewer = `viewer${++n}`;
    await post('/api/users', { username: viewer, email: `${viewer}@example.com`, password: PASSWORD, role: 'viewer' }, admin);
    expect((await post('/api/users/invite', { username: 'x1', email: 'x1@example.com' }, await t.login(viewer, PASSWORD))).statusCode).toBe(
      403,
    );
  });
});

describe('invitations with mail', () => {
  it("the answer holds no link: it goes only to the invitee's mailbox; /config/studio says mail is on", async () => {
    const res = await post('/api/users/invite', { username: 'mailed', email: 'mailed@example.com' }, admin);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.username).toBe('mailed');
    expect(res.json().data).not.toHaveProperty('inviteUrl');
    expect(res.body).not.toContain('accept-invite');
    expect(tokenIn((await mail.waitFor('mailed@example.com')).decoded)).toMatch(/^[0-9A-Za-z]{43}$/);
    const config = await t.request({ method: 'GET', url: '/api/config/studio', token: admin });
    expect(config.json().data.features.mail).toBe(true);
  });
});

describe('no enumeration through request-reset', () => {
  it('known and unknown addresses get the same answer after the same work; the token and mail come after it', async () => {
    const u = await newUser();
    // Issuing the reset token is held back until we release it: the answer must not wait for it.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let queries: string[] = [];
    const restore = spyQueries(t, async (text) => {
      if (/insert into "password_tokens"/.test(text)) await gate;
      else queries.push(text);
    });
    try {
      const known = await post('/api/auth/request-reset', { email: u.email });
      const knownQueries = queries;
      queries = [];
      const unknown = await post('/api/auth/request-reset', { email: 'nobody-at-all@example.com' });
      expect([unknown.statusCode, unknown.body]).toEqual([known.statusCode, known.body]);
      expect(queries).toEqual(knownQueries);
      expect(mail.mails.filter((m) => m.to.includes(u.email))).toHaveLength(0);
    } finally {
      release();
      restore();
    }
    // Released, the known address gets its mail.
    expect(tokenIn((await mail.waitFor(u.email)).decoded)).toMatch(/^[0-9A-Za-z]{43}$/);
  });
});
