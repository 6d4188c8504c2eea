import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWebhook, updateWebhook } from '../../packages/server/src/storage/webhooks/webhooks-store.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';

// A webhook URL is checked when it is saved, with the address classes its deliveries meet
// (docs/webhooks.md, "Network safety"): without `webhooks.allowPrivateNetworks`, a URL whose host
// is or resolves to a non-public address is 422 on `url`, at create and at update.
let guarded: TestApp;
let open: TestApp;
const tokens = new Map<TestApp, string>();

beforeAll(async () => {
  guarded = await startTestApp();
  open = await startTestApp({ webhooks: { allowPrivateNetworks: true } });
  for (const t of [guarded, open]) tokens.set(t, await t.login(ADMIN.username, ADMIN.password));
});
afterAll(async () => {
  await guarded?.close();
  await open?.close();
});

const PUBLIC = 'http://198.41.0.4/hook';
const body = (url: string, extra: Record<string, unknown> = {}) => ({ name: 'Checked', url, events: ['*'], ...extra });
const create = (t: TestApp, url: string) => t.request({ method: 'POST', url: '/api/webhooks', token: tokens.get(t), payload: body(url) });
const replace = (t: TestApp, id: string, url: string, extra: Record<string, unknown> = {}) =>
  t.request({ method: 'PUT', url: `/api/webhooks/${id}`, token: tokens.get(t), payload: body(url, extra) });
const count = async (t: TestApp) =>
  (await t.request({ method: 'GET', url: '/api/webhooks', token: tokens.get(t) })).json().meta.total as number;

const REFUSED: [string, string, string][] = [
  ['loopback', 'http://127.0.0.1:9/hook', '127.0.0.1'],
  ['loopback by name (resolved)', 'http://localhost:9/hook', '127.0.0.1'],
  ['loopback as a decimal number', 'http://2130706433/hook', '127.0.0.1'],
  ['IPv6 loopback', 'http://[::1]/hook', '::1'],
  ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1'],
  ['private', 'https://10.1.2.3/hook', '10.1.2.3'],
  ['private 192.168', 'http://192.168.0.10/hook', '192.168.0.10'],
  ['cloud metadata', 'http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
  ['CGNAT', 'http://100.64.0.1/hook', '100.64.0.1'],
  ['unspecified', 'http://0.0.0.0/hook', '0.0.0.0'],
];

describe('without webhooks.allowPrivateNetworks', () => {
  it.each(REFUSED)(
    'create refuses a %s URL: 422 on url naming the address, nothing stored; with allowPrivateNetworks it is saved',
    async (_, url, address) => {
      const before = await count(guarded);
      const err = expectSpecError(await create(guarded, url), 422, 'VALIDATION_ERROR');
      expect(err.details).toEqual([{ field: 'url', message: expect.stringContaining(address) }]);
      expect(err.details?.[0].message).toContain('webhooks.allowPrivateNetworks');
      expect(await count(guarded)).toBe(before);
      expect((await create(open, url)).statusCode).toBe(201);
    },
  );

  it('a public address and a host that does not resolve (its record may come later) are saved; update refuses a move to a non-public one', async () => {
    const made = await create(guarded, PUBLIC);
    expect(made.statusCode).toBe(201);
    const id = made.json().data.webhook.id as string;
    const unresolved = 'https://hooks.vellum-test.invalid/in';
    expect((await create(guarded, unresolved)).statusCode).toBe(201);
    expect((await replace(guarded, id, unresolved)).statusCode).toBe(200);
    expect((await replace(guarded, id, PUBLIC)).statusCode).toBe(200);
    for (const [, url, address] of REFUSED.slice(0, 3)) {
      const err = expectSpecError(await replace(guarded, id, url), 422, 'VALIDATION_ERROR');
      expect(err.details).toEqual([{ field: 'url', message: expect.stringContaining(address) }]);
    }
    expectSpecError(await replace(guarded, id, 'http://169.254.169.254/', { active: false }), 422, 'VALIDATION_ERROR');
    const got = await guarded.request({ method: 'GET', url: `/api/webhooks/${id}`, token: tokens.get(guarded) });
    expect(got.json().data).toMatchObject({ url: PUBLIC, active: true });
    expect((await replace(guarded, id, 'http://198.41.0.5/other')).statusCode).toBe(200);
  });

  it('a hook saved before at a loopback URL: switching it on or keeping it on is refused, editing it while off is not', async () => {
    // As left by a node that allowed private networks, or a name that resolved elsewhere then.
    const id = (await create(guarded, PUBLIC)).json().data.webhook.id as string;
    const stored = await findWebhook(guarded.app.services.database, id);
    if (!stored) throw new Error('the hook just made is gone');
    const loopback = 'http://127.0.0.1:9/old';
    await updateWebhook(guarded.app.services.database, id, {
      ...stored,
      url: loopback,
      active: false,
      reactivated: false,
      updatedAt: new Date().toISOString(),
    });
    expect((await replace(guarded, id, loopback, { name: 'Renamed while off', active: false })).statusCode).toBe(200);
    expectSpecError(await replace(guarded, id, loopback, { active: true }), 422, 'VALIDATION_ERROR');
    // An omitted `active` keeps it off.
    expect((await replace(guarded, id, loopback)).statusCode).toBe(200);
  });
});
