import { describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { useMailCatcher } from '../helpers/mail-catcher.js';

// A password reset started by an administrator (docs/api.md, "Password reset and invitations"):
// `POST /users/:id/password-reset` issues the self-service flow's link (one hour, single use,
// /studio/reset-password), mails it, or without mail answers it to the caller to pass on.
const PASSWORD = 'user-password-1';
const NEW_PASSWORD = 'chosen-by-link-1';
const RESET_LINK = /^https:\/\/cms\.example\/studio\/reset-password\?token=([0-9A-Za-z]{43})$/;
const INVITE_LINK = /^https:\/\/cms\.example\/studio\/accept-invite\?token=([0-9A-Za-z]{43})$/;
const tokenIn = (text: string) => /\/studio\/reset-password\?token=([0-9A-Za-z]{43})/.exec(text)?.[1] as string;

let t: TestApp;
let admin: string;
let clock = new Date();
let n = 0;

const start = (config: Parameters<typeof startTestApp>[0] = {}) =>
  startTestApp({ server: { publicUrl: 'https://cms.example' }, ...config }, { now: () => clock });
const ready = (app: TestApp, token: string) => {
  t = app;
  admin = token;
};

async function newUser(extra: Record<string, unknown> = {}) {
  const username = `pwreset${++n}`;
  const res = await t.request({
    method: 'POST',
    url: '/api/users',
    token: admin,
    payload: { username, email: `${username}@example.com`, password: PASSWORD, ...extra },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().data.id as string, username, email: `${username}@example.com` };
}

const sendReset = (id: string, token?: string) => t.request({ method: 'POST', url: `/api/users/${id}/password-reset`, token });
const resetWith = (token: string, password = NEW_PASSWORD) =>
  t.request({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password } });
const loginStatus = async (username: string, password: string) =>
  (await t.request({ method: 'POST', url: '/api/auth/login', payload: { username, password } })).statusCode;

async function auditOf(target: string) {
  const res = await t.request({ method: 'GET', url: '/api/audit?type=passwordResetIssue&limit=100', token: admin });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as Array<{ type: string; target: string; actor: { id: string; kind: string }; details: unknown }>).filter(
    (r) => r.target === target,
  );
}

describe('without mail', () => {
  useAdminApp(() => start(), ready);

  it('answers the reset link (resetUrl) and nothing else; the link sets the password once and ends the sessions', async () => {
    const u = await newUser();
    const session = await t.login(u.username, PASSWORD);
    const res = await sendReset(u.id, admin);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(Object.keys(data).sort()).toEqual(['purpose', 'resetUrl', 'sent']);
    expect(data).toMatchObject({ purpose: 'reset', sent: false });
    const token = RESET_LINK.exec(data.resetUrl)?.[1] as string;
    expect(token, data.resetUrl).toBeTruthy();

    expect((await resetWith(token)).json()).toEqual({ data: { success: true } });
    expect(await loginStatus(u.username, PASSWORD)).toBe(401);
    expect(await loginStatus(u.username, NEW_PASSWORD)).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: session })).statusCode).toBe(401);
    // Single use, as a self-service link.
    expect((await t.request({ method: 'POST', url: '/api/auth/verify-reset-token', payload: { token } })).json()).toEqual({
      data: { valid: false },
    });
    expectSpecError(await resetWith(token, 'another-password-2'), 400, 'INVALID_INPUT');
  });

  it('is audited as passwordResetIssue: the admin, the user, how the link went; never the link', async () => {
    const u = await newUser();
    const res = await sendReset(u.id, admin);
    expect(res.statusCode, res.body).toBe(200);
    const token = RESET_LINK.exec(res.json().data.resetUrl)?.[1] as string;
    const me = (await t.request({ method: 'GET', url: '/api/auth/me', token: admin })).json().data;
    const records = await auditOf(u.id);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ type: 'passwordResetIssue', actor: { id: me.id, kind: 'user' } });
    expect(records[0].details).toEqual({ purpose: 'reset', sent: false });
    expect(JSON.stringify(records)).not.toContain(token);
  });

  it('the link lives one hour, as a self-service one', async () => {
    const u = await newUser();
    const token = RESET_LINK.exec((await sendReset(u.id, admin)).json().data.resetUrl)?.[1] as string;
    const before = clock;
    clock = new Date(before.getTime() + 61 * 60_000);
    try {
      expectSpecError(await resetWith(token), 400, 'INVALID_INPUT');
      expect(await loginStatus(u.username, PASSWORD)).toBe(200);
    } finally {
      clock = before;
    }
  });

  it('who may: anonymous 401, a viewer or editor 403; users:write 200, but an admin account only for an admin', async () => {
    const u = await newUser();
    const adminUser = await newUser({ role: 'admin' });
    expectSpecError(await sendReset(u.id), 401, 'UNAUTHORIZED');
    for (const role of ['viewer', 'editor', 'writer']) expectSpecError(await sendReset(u.id, await t.userToken(role)), 403, 'FORBIDDEN');
    expectSpecError(await sendReset(u.id, await t.userToken('viewer', ['users:read', 'users:invite'])), 403, 'FORBIDDEN');
    const manager = await t.userToken('viewer', ['users:write']);
    const denied = await sendReset(adminUser.id, manager);
    expectSpecError(denied, 403, 'FORBIDDEN');
    expect(denied.body).not.toContain('reset-password');
    const ok = await sendReset(u.id, manager);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.resetUrl).toMatch(RESET_LINK);
    expect((await sendReset(adminUser.id, admin)).statusCode).toBe(200);
    // Only the calls that were let through issued a link.
    expect(await auditOf(u.id)).toHaveLength(1);
  });

  it('an unknown user is 404 naming the user', async () => {
    expect(expectSpecError(await sendReset('no-such-user', admin), 404, 'NOT_FOUND').message).toBe('User not found');
  });

  it('a user who has not accepted their invitation gets a fresh invitation link, which activates the account', async () => {
    const invited = await t.request({
      method: 'POST',
      url: '/api/users/invite',
      token: admin,
      payload: { username: 'pending1', email: 'pending1@example.com', role: 'writer' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const id = invited.json().data.id as string;
    const res = await sendReset(id, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ purpose: 'invite', sent: false });
    const token = INVITE_LINK.exec(res.json().data.resetUrl)?.[1] as string;
    expect(token, res.body).toBeTruthy();
    expect(token).not.toBe(INVITE_LINK.exec(invited.json().data.inviteUrl)?.[1]);
    expect((await resetWith(token)).statusCode).toBe(200);
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token: await t.login('pending1', NEW_PASSWORD) });
    expect(me.json().data).toMatchObject({ username: 'pending1', active: true, role: 'writer' });
    expect((await auditOf(id)).map((r) => r.details)).toEqual([{ purpose: 'invite', sent: false }]);
  });

  it('a deactivated user is 409 naming why, and no link is issued', async () => {
    const u = await newUser();
    expect((await t.request({ method: 'PUT', url: `/api/users/${u.id}`, token: admin, payload: { active: false } })).statusCode).toBe(200);
    const res = await sendReset(u.id, admin);
    expect(expectSpecError(res, 409, 'CONFLICT').message).toMatch(/deactivated/);
    expect(res.body).not.toContain('token=');
    expect(await auditOf(u.id)).toEqual([]);
    // A user created inactive without a password was never invited: refused too, never activated by a link.
    const bare = await newUser({ password: undefined, active: false });
    expectSpecError(await sendReset(bare.id, admin), 409, 'CONFLICT');
  });

  it('GET /auth/reset-status tells anyone that mail is off', async () => {
    const res = await t.request({ method: 'GET', url: '/api/auth/reset-status' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { mail: false } });
  });
});

describe('with mail', () => {
  const mail = useMailCatcher();
  useAdminApp(() => start({ mail: { smtpUrl: mail.url, from: 'Vellum <cms@example.com>' } }), ready);

  it('mails the link to the user and answers {purpose, sent: true} without it; the mailed link sets the password once', async () => {
    const u = await newUser();
    const res = await sendReset(u.id, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { purpose: 'reset', sent: true } });
    expect(res.body).not.toContain('token');
    const m = await mail.waitFor(u.email);
    expect(m.decoded).toContain('Subject: Reset your Vellum password');
    const token = tokenIn(m.decoded);
    expect(m.decoded).toContain(`https://cms.example/studio/reset-password?token=${token}`);
    expect((await resetWith(token)).statusCode).toBe(200);
    expect(await loginStatus(u.username, NEW_PASSWORD)).toBe(200);
    expectSpecError(await resetWith(token, 'another-password-2'), 400, 'INVALID_INPUT');
    expect((await auditOf(u.id)).map((r) => r.details)).toEqual([{ purpose: 'reset', sent: true }]);
  });

  it('GET /auth/reset-status tells anyone that mail is on', async () => {
    const res = await t.request({ method: 'GET', url: '/api/auth/reset-status' });
    expect(res.json()).toEqual({ data: { mail: true } });
  });
});
