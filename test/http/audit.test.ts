import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { useMailCatcher } from '../helpers/mail-catcher.js';
import type { JsonObject } from '../helpers/json-object.js';

let t: TestApp;
let admin: string;
const mail = useMailCatcher();
const UA = 'audit-test-agent/1.0';

const audit = async (query: string) => {
  const res = await t.request({ method: 'GET', url: `/api/audit?limit=100&${query}`, token: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Array<JsonObject>; meta: { total: number } };
};
const req = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>, token?: string) =>
  t.request({ method, url, payload, token, headers: { 'user-agent': UA } });

useAdminApp(
  () => startTestApp({ mail: { smtpUrl: mail.url } }),
  (app, token) => {
    t = app;
    admin = token;
  },
);

describe('audit log', () => {
  it('records each listed event exactly once per action, with actor, IP and user agent, and no secrets', async () => {
    const secrets: string[] = ['secret-password-1', 'changed-password-2', 'reset-password-3'];
    // userCreate
    const created = await req(
      'POST',
      '/api/users',
      { username: 'audited', email: 'audited@example.com', password: secrets[0], role: 'editor' },
      admin,
    );
    const userId = created.json().data.id;
    // login, loginFailed
    const session = (await req('POST', '/api/auth/login', { username: 'audited', password: secrets[0] })).json().data;
    expect((await req('POST', '/api/auth/login', { username: 'audited', password: 'wrong-password' })).statusCode).toBe(401);
    // passwordChange
    expect(
      (await req('POST', '/api/auth/change-password', { currentPassword: secrets[0], newPassword: secrets[1] }, session.token)).statusCode,
    ).toBe(200);
    // logout
    expect((await req('POST', '/api/auth/logout', {}, session.token)).statusCode).toBe(200);
    // userUpdate
    expect((await req('PUT', `/api/users/${userId}`, { firstName: 'Aud', password: 'put-password-4' }, admin)).statusCode).toBe(200);
    secrets.push('put-password-4');
    // passwordReset
    await req('POST', '/api/auth/request-reset', { email: 'audited@example.com' });
    const link = /token=([0-9A-Za-z]{43})/.exec((await mail.waitFor('audited@example.com')).decoded)?.[1] as string;
    secrets.push(link);
    expect((await req('POST', '/api/auth/reset-password', { token: link, password: secrets[2] })).statusCode).toBe(200);
    // tokenCreate, tokenRevoke
    const token = (await req('POST', '/api/tokens', { name: 'audit token', permissions: ['content:read'] }, admin)).json().data;
    secrets.push(token.token);
    expect((await t.request({ method: 'DELETE', url: `/api/tokens/${token.apiToken.id}`, token: admin })).statusCode).toBe(200);
    // userDelete
    expect((await req('DELETE', `/api/users/${userId}`, undefined, admin)).statusCode).toBe(200);

    const expected: Record<string, number> = {
      userCreate: 1,
      login: 1,
      loginFailed: 1,
      passwordChange: 1,
      logout: 1,
      userUpdate: 1,
      passwordReset: 1,
      tokenCreate: 1,
      tokenRevoke: 1,
      userDelete: 1,
    };
    for (const [type, count] of Object.entries(expected)) {
      const records = (await audit(`type=${type}`)).data.filter((r) => r.target === userId || r.target === token.apiToken.id);
      expect([type, records.length]).toEqual([type, count]);
    }
    const [failed] = (await audit('type=loginFailed')).data;
    expect(failed).toMatchObject({
      actor: { id: null, kind: 'anonymous' },
      target: userId,
      details: { username: 'audited' },
      userAgent: UA,
    });
    expect(typeof failed.ip).toBe('string');
    const [login] = (await audit('type=login')).data.filter((r) => r.target === userId);
    expect(login.actor).toEqual({ id: userId, kind: 'user' });
    const [update] = (await audit('type=userUpdate')).data;
    expect(update.details).toEqual({ fields: ['firstName', 'password'] });
    expect(Object.keys(update).sort()).toEqual(['actor', 'at', 'details', 'id', 'ip', 'target', 'type', 'userAgent']);
    const everything = JSON.stringify((await audit('')).data);
    for (const s of secrets) expect(everything).not.toContain(s);
  });

  it('filters by since and pages newest first', async () => {
    const all = await audit('');
    expect(all.meta.total).toBeGreaterThan(5);
    const ats = all.data.map((r) => r.at);
    expect([...ats].sort().reverse()).toEqual(ats);
    expect((await audit('since=2999-01-01')).meta.total).toBe(0);
    expect((await audit('since=2000-01-01')).meta.total).toBe(all.meta.total);
    expect((await t.request({ method: 'GET', url: '/api/audit?type=nonsense', token: admin })).statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: '/api/audit?since=yesterday', token: admin })).statusCode).toBe(400);
  });

  it('is for admins only', async () => {
    expect((await t.request({ method: 'GET', url: '/api/audit' })).statusCode).toBe(401);
    const editor = await t.userToken('editor', ['users:read', 'settings:read', 'settings:write', 'content:*']);
    expect((await t.request({ method: 'GET', url: '/api/audit', token: editor })).statusCode).toBe(403);
  });

  it('a failing audit write never fails the request it records', async () => {
    await sql`drop table audit_log`.execute(t.app.services.database.db);
    expect((await req('POST', '/api/auth/login', { username: ADMIN.username, password: ADMIN.password })).statusCode).toBe(200);
    expect((await req('POST', '/api/auth/login', { username: ADMIN.username, password: 'wrong-password' })).statusCode).toBe(401);
  });
});

describe('audit configuration', () => {
  it('records only the configured events, and nothing when disabled', async () => {
    const some = await startTestApp({ security: { auditLog: { enabled: true, events: ['loginFailed'] } } });
    const off = await startTestApp({ security: { auditLog: { enabled: false } } });
    try {
      for (const app of [some, off]) {
        await app.login(ADMIN.username, ADMIN.password);
        await app.request({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN.username, password: 'wrong-password' } });
      }
      const list = async (app: TestApp) =>
        (await app.request({ method: 'GET', url: '/api/audit', token: await app.login(ADMIN.username, ADMIN.password) }))
          .json()
          .data.map((r: { type: string }) => r.type);
      expect(await list(some)).toEqual(['loginFailed']);
      expect(await list(off)).toEqual([]);
    } finally {
      await some.close();
      await off.close();
    }
  });
});
