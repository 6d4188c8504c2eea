import { describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';

// An invitation on an instance without mail (docs/api.md, "Password reset and invitations"): no
// mail can reach the invitee, so the answer hands the link to the inviter, who passes it on.
let t: TestApp;
let admin: string;
const PASSWORD = 'user-password-1';
const LINK = /^https:\/\/cms\.example\/studio\/accept-invite\?token=([0-9A-Za-z]{43})$/;

useAdminApp(
  () => startTestApp({ server: { publicUrl: 'https://cms.example' } }),
  (app, token) => {
    t = app;
    admin = token;
  },
);

const invite = (username: string, token: string) =>
  t.request({ method: 'POST', url: '/api/users/invite', token, payload: { username, email: `${username}@example.com`, role: 'writer' } });

describe('invitations without mail', () => {
  it('the answer carries the link (inviteUrl), and the link activates the account', async () => {
    const res = await invite('nomail1', admin);
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({ username: 'nomail1', active: false, role: 'writer' });
    const token = LINK.exec(data.inviteUrl)?.[1];
    expect(token, data.inviteUrl).toBeTruthy();
    expect((await t.request({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: PASSWORD } })).statusCode).toBe(
      200,
    );
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token: await t.login('nomail1', PASSWORD) });
    expect(me.json().data).toMatchObject({ username: 'nomail1', active: true, role: 'writer' });
  });

  it('a caller with only users:invite gets the link too; no other answer about the user carries it', async () => {
    const inviter = await t.userToken('viewer', ['users:invite']);
    const res = await invite('nomail2', inviter);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.inviteUrl).toMatch(LINK);
    const id = res.json().data.id as string;
    const again = await t.request({ method: 'GET', url: `/api/users/${id}`, token: admin });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).not.toHaveProperty('inviteUrl');
    expect((await t.request({ method: 'GET', url: '/api/users?search=nomail2', token: admin })).body).not.toContain('accept-invite');
  });

  it('/config/studio says mail is off', async () => {
    const res = await t.request({ method: 'GET', url: '/api/config/studio', token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.features.mail).toBe(false);
  });
});
