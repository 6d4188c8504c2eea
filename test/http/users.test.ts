import { describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { detailFields } from '../helpers/expect-error.js';
import { SERVED_USER_KEYS } from '../helpers/user-keys.js';

let t: TestApp;
let admin: string;
let n = 0;
const unique = () => `u${++n}_${Math.random().toString(36).slice(2, 7)}`;
const PASSWORD = 'user-password-1';

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

async function createUser(body: Record<string, unknown>, token = admin) {
  return t.request({ method: 'POST', url: '/api/users', token, payload: { password: PASSWORD, ...body } });
}
async function newUser(role: string, extra: Record<string, unknown> = {}) {
  const username = unique();
  const res = await createUser({ username, email: `${username}@example.com`, role, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return { ...(res.json().data as { id: string; username: string }), token: await t.login(username, PASSWORD) };
}
const me = (token: string) => t.request({ method: 'GET', url: '/api/auth/me', token });

useAdminApp(
  () =>
    startTestApp({
      security: {
        // Hooks from a JS/TS config: refuse one domain, make everyone from another an author.
        validateUser: (u: { email: string }) => (u.email.endsWith('@blocked.example') ? 'this email domain is not allowed' : true),
        assignRole: (u: { email: string; role: string }) => (u.email.endsWith('@authors.example') ? 'author' : u.role),
      },
    }),
  (app, token) => {
    t = app;
    admin = token;
  },
);

describe('create', () => {
  it('POST /users → 201 with the served shape, never a hash', async () => {
    const res = await createUser({
      username: 'jane',
      email: 'Jane@Example.com',
      firstName: 'Jane',
      lastName: 'Doe',
      role: 'editor',
      permissions: ['media:read'],
    });
    expect(res.statusCode).toBe(201);
    const user = res.json().data;
    expect(Object.keys(user).sort()).toEqual(SERVED_USER_KEYS);
    expect(user).toMatchObject({
      username: 'jane',
      email: 'jane@example.com',
      name: 'Jane Doe',
      role: 'editor',
      permissions: ['media:read'],
      active: true,
      lastLogin: null,
    });
    expect(allKeys(res.json()).filter((k) => /hash|secret|password|backup/i.test(k))).toEqual([]);
  });

  it('unknown permissions and roles are 422; a weak password says which rule failed', async () => {
    const u = unique();
    const bad = await createUser({ username: u, email: `${u}@example.com`, role: 'boss', permissions: ['nope'] });
    expect(bad.statusCode).toBe(422);
    expect(detailFields(bad)).toEqual(['permissions.0', 'role']);
    const weak = await createUser({ username: u, email: `${u}@example.com`, password: 'short' });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().error.details).toEqual([{ field: 'password', message: 'must be at least 10 characters' }]);
  });

  it('duplicate username or email → 409', async () => {
    const a = await newUser('viewer');
    const dupName = await createUser({ username: a.username, email: `${unique()}@example.com` });
    expect(dupName.statusCode).toBe(409);
    const dupMail = await createUser({ username: unique(), email: `${a.username.toUpperCase()}@EXAMPLE.com` });
    expect(dupMail.statusCode).toBe(409);
    expect(dupMail.json().error.details).toEqual([{ field: 'email', message: 'is taken' }]);
  });

  it('runs the validateUser and assignRole hooks', async () => {
    const refused = await createUser({ username: unique(), email: 'x@blocked.example' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.details[0].message).toBe('this email domain is not allowed');
    const assigned = await createUser({ username: unique(), email: `${unique()}@authors.example`, role: 'viewer' });
    expect(assigned.json().data.role).toBe('author');
  });

  it('a non-admin with users:write cannot create admins or grant what it lacks', async () => {
    const manager = await newUser('viewer', { permissions: ['users:write', 'users:read'] });
    expect((await createUser({ username: unique(), email: `${unique()}@example.com`, role: 'admin' }, manager.token)).statusCode).toBe(403);
    expect(
      (await createUser({ username: unique(), email: `${unique()}@example.com`, permissions: ['content:publish'] }, manager.token))
        .statusCode,
    ).toBe(403);
    expect(
      (await createUser({ username: unique(), email: `${unique()}@example.com`, permissions: ['content:read'] }, manager.token)).statusCode,
    ).toBe(201);
  });
});

describe('read', () => {
  it('lists with paging and filters; reads by id, username and email', async () => {
    const u = await newUser('writer', { firstName: 'Searchable' });
    const list = await t.request({ method: 'GET', url: '/api/users?limit=2', token: admin });
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toHaveLength(2);
    expect(list.json().meta.limit).toBe(2);
    const found = await t.request({ method: 'GET', url: '/api/users?search=searchABLE', token: admin });
    expect(found.json().data.map((x: { id: string }) => x.id)).toEqual([u.id]);
    const writers = await t.request({ method: 'GET', url: '/api/users?role=writer&active=true&limit=100', token: admin });
    expect(writers.json().data.every((x: { role: string }) => x.role === 'writer')).toBe(true);
    expect((await t.request({ method: 'GET', url: `/api/users/${u.id}`, token: admin })).json().data.username).toBe(u.username);
    expect((await t.request({ method: 'GET', url: `/api/users/by-username/${u.username}`, token: admin })).json().data.id).toBe(u.id);
    expect((await t.request({ method: 'GET', url: `/api/users/by-email/${u.username}@example.com`, token: admin })).json().data.id).toBe(
      u.id,
    );
    expect((await t.request({ method: 'GET', url: '/api/users/nope', token: admin })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/api/users?role=boss', token: admin })).statusCode).toBe(400);
  });

  it('access: users:read lists; by-username and by-email need users:write', async () => {
    const reader = await newUser('viewer', { permissions: ['users:read'] });
    const writer = await newUser('viewer', { permissions: ['users:write'] });
    const viewer = await newUser('viewer');
    const target = await newUser('viewer');
    const cases: Array<[string, string | undefined, number]> = [
      ['/api/users', undefined, 401],
      ['/api/users', viewer.token, 403],
      ['/api/users', reader.token, 200],
      ['/api/users', writer.token, 403],
      [`/api/users/${target.id}`, reader.token, 200],
      [`/api/users/by-username/${target.username}`, reader.token, 403],
      [`/api/users/by-username/${target.username}`, writer.token, 200],
      [`/api/users/by-email/${target.username}@example.com`, writer.token, 200],
      [`/api/users/by-email/${target.username}@example.com`, viewer.token, 403],
    ];
    for (const [url, token, status] of cases)
      expect([url, (await t.request({ method: 'GET', url, token })).statusCode]).toEqual([url, status]);
    expect((await createUser({ username: unique(), email: `${unique()}@example.com` }, reader.token)).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: '/api/users', payload: {} })).statusCode).toBe(401);
  });
});

describe('update and delete', () => {
  it('PUT updates only the fields given', async () => {
    const u = await newUser('viewer', { firstName: 'Old', lastName: 'Name' });
    const res = await t.request({ method: 'PUT', url: `/api/users/${u.id}`, token: admin, payload: { firstName: 'New' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ firstName: 'New', lastName: 'Name', name: 'New Name', role: 'viewer' });
    expect((await me(u.token)).statusCode).toBe(200);
  });

  it("a role change, a deactivation or a new password ends the user's sessions at once", async () => {
    const a = await newUser('viewer');
    await t.request({ method: 'PUT', url: `/api/users/${a.id}`, token: admin, payload: { role: 'editor' } });
    expect((await me(a.token)).statusCode).toBe(401);
    const editorToken = await t.login(a.username, PASSWORD);
    expect((await me(editorToken)).json().data.role).toBe('editor');

    const b = await newUser('viewer');
    await t.request({ method: 'PUT', url: `/api/users/${b.id}`, token: admin, payload: { active: false } });
    expect((await me(b.token)).statusCode).toBe(401);
    expect(
      (await t.request({ method: 'POST', url: '/api/auth/login', payload: { username: b.username, password: PASSWORD } })).statusCode,
    ).toBe(401);

    const c = await newUser('viewer');
    await t.request({ method: 'PUT', url: `/api/users/${c.id}`, token: admin, payload: { password: 'another-password-2' } });
    expect((await me(c.token)).statusCode).toBe(401);
    expect(await t.login(c.username, 'another-password-2')).toBeTruthy();
  });

  it('the last active admin cannot be demoted, deactivated or deleted', async () => {
    const list = await t.request({ method: 'GET', url: '/api/users?role=admin&active=true', token: admin });
    expect(list.json().meta.total).toBe(1);
    const adminId = list.json().data[0].id;
    for (const payload of [{ role: 'editor' }, { active: false }]) {
      const res = await t.request({ method: 'PUT', url: `/api/users/${adminId}`, token: admin, payload });
      expect(res.statusCode).toBe(409);
    }
    expect((await t.request({ method: 'DELETE', url: `/api/users/${adminId}`, token: admin })).statusCode).toBe(409);
    // With a second admin, the first may go.
    const second = await newUser('admin');
    const demoted = await t.request({ method: 'PUT', url: `/api/users/${adminId}`, token: second.token, payload: { role: 'editor' } });
    expect(demoted.statusCode).toBe(200);
    await t.request({ method: 'PUT', url: `/api/users/${adminId}`, token: second.token, payload: { role: 'admin' } });
    admin = await t.login(ADMIN.username, ADMIN.password);
  });

  it('non-admins cannot change admin accounts', async () => {
    const manager = await newUser('viewer', { permissions: ['users:write'] });
    const other = await newUser('admin');
    expect(
      (await t.request({ method: 'PUT', url: `/api/users/${other.id}`, token: manager.token, payload: { firstName: 'x' } })).statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `/api/users/${other.id}`, token: manager.token })).statusCode).toBe(403);
    expect(
      (await t.request({ method: 'PUT', url: `/api/users/${manager.id}`, token: manager.token, payload: { role: 'admin' } })).statusCode,
    ).toBe(403);
  });

  it('DELETE removes the user and its sessions', async () => {
    const u = await newUser('writer');
    const res = await t.request({ method: 'DELETE', url: `/api/users/${u.id}`, token: admin });
    expect(res.json()).toEqual({ success: true });
    expect((await me(u.token)).statusCode).toBe(401);
    expect((await t.request({ method: 'DELETE', url: `/api/users/${u.id}`, token: admin })).statusCode).toBe(404);
  });
});

describe('change password', () => {
  it('needs the current password (403 otherwise), applies the policy and ends the other sessions', async () => {
    const u = await newUser('viewer');
    const other = await t.login(u.username, PASSWORD);
    const url = '/api/auth/change-password';
    const wrong = await t.request({
      method: 'POST',
      url,
      token: u.token,
      payload: { currentPassword: 'wrong-password', newPassword: 'new-password-123' },
    });
    expect(wrong.statusCode).toBe(403);
    const weak = await t.request({ method: 'POST', url, token: u.token, payload: { currentPassword: PASSWORD, newPassword: 'short' } });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().error.details[0].field).toBe('newPassword');
    const ok = await t.request({
      method: 'POST',
      url,
      token: u.token,
      payload: { currentPassword: PASSWORD, newPassword: 'new-password-123' },
    });
    expect(ok.json()).toEqual({ data: { success: true } });
    expect((await me(u.token)).statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
    expect(await t.login(u.username, 'new-password-123')).toBeTruthy();
    expect((await t.request({ method: 'POST', url, payload: { currentPassword: 'a', newPassword: 'b' } })).statusCode).toBe(401);
  });
});
