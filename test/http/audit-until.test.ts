import { describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';

// GET /audit?until=: records strictly before the instant (docs/api.md, "Audit log").
let t: TestApp;
let admin: string;
let clock = new Date('2030-03-01T09:00:00.000Z');

useAdminApp(
  () => startTestApp({}, { now: () => clock }),
  (app, token) => {
    t = app;
    admin = token;
  },
);

const audit = async (query: string) => {
  const res = await t.request({ method: 'GET', url: `/api/audit?type=login&limit=100&${query}`, token: admin });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as Array<{ at: string }>).map((r) => r.at);
};

/** A sign-in of the admin at `iso`: one `login` record there; its token (valid at that time) is used from then on. */
async function loginAt(iso: string) {
  clock = new Date(iso);
  admin = await t.login(ADMIN.username, ADMIN.password);
}

describe('GET /audit until', () => {
  it('is an exclusive upper bound, alone and with since; the answer keeps newest first', async () => {
    await loginAt('2030-03-02T10:00:00.000Z');
    await loginAt('2030-03-03T10:00:00.000Z');
    await loginAt('2030-03-04T10:00:00.000Z');
    // The first login (useAdminApp's, 2030-03-01T09:00) is there too.
    expect(await audit('')).toEqual([
      '2030-03-04T10:00:00.000Z',
      '2030-03-03T10:00:00.000Z',
      '2030-03-02T10:00:00.000Z',
      '2030-03-01T09:00:00.000Z',
    ]);
    // A record exactly at `until` is left out; one a millisecond earlier is in.
    expect(await audit('until=2030-03-03T10:00:00.000Z')).toEqual(['2030-03-02T10:00:00.000Z', '2030-03-01T09:00:00.000Z']);
    expect(await audit('until=2030-03-03T10:00:00.001Z')).toEqual([
      '2030-03-03T10:00:00.000Z',
      '2030-03-02T10:00:00.000Z',
      '2030-03-01T09:00:00.000Z',
    ]);
    // A date alone is its midnight (UTC); other offsets are converted.
    expect(await audit('until=2030-03-03')).toEqual(['2030-03-02T10:00:00.000Z', '2030-03-01T09:00:00.000Z']);
    expect(await audit(`until=${encodeURIComponent('2030-03-02T12:00:00+02:00')}`)).toEqual(['2030-03-01T09:00:00.000Z']);
    // With since (inclusive): one day's records; consecutive ranges meet without overlap.
    expect(await audit('since=2030-03-03&until=2030-03-04')).toEqual(['2030-03-03T10:00:00.000Z']);
    expect(await audit('since=2030-03-04&until=2030-03-05')).toEqual(['2030-03-04T10:00:00.000Z']);
    expect(await audit('since=2030-03-03T10:00:00.000Z&until=2030-03-03T10:00:00.000Z')).toEqual([]);
    // meta.total counts what the range selects.
    const res = await t.request({ method: 'GET', url: '/api/audit?type=login&until=2030-03-03&limit=1', token: admin });
    expect(res.json().meta.total).toBe(2);
    expect(res.json().data).toHaveLength(1);
  });

  it('a bad value is 400 INVALID_INPUT naming until', async () => {
    for (const bad of ['yesterday', '03/04/2030', '2030-13-45', '', 'x'.repeat(65)]) {
      const res = await t.request({ method: 'GET', url: `/api/audit?until=${encodeURIComponent(bad)}`, token: admin });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error.code, bad).toBe('INVALID_INPUT');
    }
    const named = await t.request({ method: 'GET', url: '/api/audit?until=yesterday', token: admin });
    expect(named.json().error.details).toEqual([{ field: 'until', message: expect.any(String) }]);
  });

  it('stays admins-only', async () => {
    const editor = await t.userToken('editor', ['users:read', 'settings:read']);
    expect((await t.request({ method: 'GET', url: '/api/audit?until=2030-03-03', token: editor })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/audit?until=2030-03-03' })).statusCode).toBe(401);
  });
});
