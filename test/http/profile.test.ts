import { describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { deviceTokens } from '../helpers/oauth2.js';

// PATCH /auth/me: the signed-in user changes their own name and email (docs/api.md, "Self-service profile").
let t: TestApp;
let admin: string;

useAdminApp(
  () => startTestApp({ oauth2: { enabled: true } }),
  (app, token) => {
    t = app;
    admin = token;
  },
);

const PASSWORD = 'profile-password-1';
let counter = 0;

/** A new editor with a password, signed in. */
async function newUser(): Promise<{ id: string; username: string; token: string }> {
  const username = `profile${++counter}`;
  const res = await t.request({
    method: 'POST',
    url: '/api/users',
    token: admin,
    payload: { username, email: `${username}@example.com`, password: PASSWORD, role: 'editor' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().data.id, username, token: await t.login(username, PASSWORD) };
}

const patch = (token: string | undefined, payload: unknown) =>
  t.request({ method: 'PATCH', url: '/api/auth/me', token, payload: payload as object });
const me = async (token: string) => (await t.request({ method: 'GET', url: '/api/auth/me', token })).json().data;

describe('PATCH /auth/me', () => {
  it('changes the name and answers the user as GET /auth/me does', async () => {
    const u = await newUser();
    const res = await patch(u.token, { firstName: 'Ada', lastName: 'Lovelace' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: u.id, username: u.username, firstName: 'Ada', lastName: 'Lovelace', name: 'Ada Lovelace' });
    expect(res.json().data).toEqual(await me(u.token));
    // null clears a name; the display name falls back to the username.
    const cleared = await patch(u.token, { firstName: null, lastName: null });
    expect(cleared.json().data).toMatchObject({ firstName: null, lastName: null, name: u.username });
  });

  it('changes the email with the current password, stored in lower case; signing in by the new email works', async () => {
    const u = await newUser();
    const res = await patch(u.token, { email: 'New.Address@Example.com', currentPassword: PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.email).toBe('new.address@example.com');
    expect((await me(u.token)).email).toBe('new.address@example.com');
    expect(await t.login('new.address@example.com', PASSWORD)).toEqual(expect.any(String));
  });

  it('a new email without the current password is 422 on currentPassword; a wrong one is 403; neither changes it', async () => {
    const u = await newUser();
    const missing = await patch(u.token, { email: 'other@example.com' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'currentPassword' }] });
    const wrong = await patch(u.token, { email: 'other@example.com', currentPassword: 'not-the-password' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error.code).toBe('FORBIDDEN');
    expect((await me(u.token)).email).toBe(`${u.username}@example.com`);
    // The same email (in any case) is no change, and needs no password.
    const same = await patch(u.token, { email: `${u.username.toUpperCase()}@example.com`, firstName: 'Same' });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().data).toMatchObject({ email: `${u.username}@example.com`, firstName: 'Same' });
  });

  it('a user without a password changes their email without one', async () => {
    const u = await newUser();
    await t.app.services.database.db.updateTable('users').set({ password_hash: null }).where('id', '=', u.id).execute();
    const res = await patch(u.token, { email: `${u.username}-nopw@example.com` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.email).toBe(`${u.username}-nopw@example.com`);
  });

  it("another user's email is 409 CONFLICT on the email field, in any case", async () => {
    const u = await newUser();
    const other = await newUser();
    const res = await patch(u.token, { email: `${other.username.toUpperCase()}@EXAMPLE.COM`, currentPassword: PASSWORD });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'CONFLICT', details: [{ field: 'email', message: 'is taken' }] });
    expect((await me(u.token)).email).toBe(`${u.username}@example.com`);
  });

  it('bad input is 422 VALIDATION_ERROR: wrong types, unknown fields, too long, not an email', async () => {
    const u = await newUser();
    for (const body of [
      { firstName: 42 },
      { lastName: ['x'] },
      { email: null, currentPassword: PASSWORD },
      { role: 'admin' },
      { username: 'renamed' },
      { permissions: ['users:write'] },
      { firstName: 'x'.repeat(101) },
      { email: `${'x'.repeat(250)}@example.com`, currentPassword: PASSWORD },
      { email: 'not-an-email', currentPassword: PASSWORD },
    ]) {
      const res = await patch(u.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect(await me(u.token)).toMatchObject({ role: 'editor', username: u.username, firstName: null, email: `${u.username}@example.com` });
    const notJson = await t.request({
      method: 'PATCH',
      url: '/api/auth/me',
      token: u.token,
      headers: { 'content-type': 'application/json' },
      payload: '{"firstName":',
    });
    expect(notJson.statusCode).toBe(400);
  });

  it('answers no secret: no password hash, no current password', async () => {
    const u = await newUser();
    const res = await patch(u.token, { firstName: 'Quiet', email: `${u.username}-quiet@example.com`, currentPassword: PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain(PASSWORD);
    expect(res.body).not.toMatch(/\$2[aby]\$/);
    for (const key of Object.keys(res.json().data)) expect(key).not.toMatch(/password|hash|secret/i);
  });

  it('writes one userUpdate audit record naming the changed fields, never the password', async () => {
    const u = await newUser();
    await patch(u.token, { firstName: 'Audited', email: `${u.username}-audited@example.com`, currentPassword: PASSWORD });
    const res = await t.request({ method: 'GET', url: `/api/audit?type=userUpdate&limit=100`, token: admin });
    const mine = res.json().data.filter((r: { target: string }) => r.target === u.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ actor: { id: u.id, kind: 'user' }, details: { fields: ['firstName', 'email'] } });
    expect(JSON.stringify(mine[0])).not.toContain(PASSWORD);
  });

  it('is refused without a user session: 401 anonymous, 403 for an API token and an OAuth access token', async () => {
    expect((await patch(undefined, { firstName: 'Nobody' })).statusCode).toBe(401);
    const created = await t.request({
      method: 'POST',
      url: '/api/tokens',
      token: admin,
      payload: { name: 'profile', permissions: ['content:read'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect((await patch(created.json().data.token, { firstName: 'Token' })).statusCode).toBe(403);
    const u = await newUser();
    const oauth = await deviceTokens(t, u.token, 'content:read');
    expect((await patch(oauth.access_token, { firstName: 'App' })).statusCode).toBe(403);
    expect((await me(u.token)).firstName).toBeNull();
  });
});
