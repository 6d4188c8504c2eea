import { describe, expect, it } from 'vitest';
import { createApp, resolveConfig } from '../../packages/server/src/index.js';
import { ADMIN, startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { detailFields } from '../helpers/expect-error.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

let t: TestApp;
let admin: string;

useAdminApp(
  () =>
    startTestApp({
      schemas: TEST_SCHEMAS,
      studio: {
        pageSize: 50,
        structure: [
          { title: 'Blog', items: ['post', { schema: 'author', title: 'Writers' }] },
          { title: 'Private', items: ['secret'] },
        ],
      },
    }),
  (app, token) => {
    t = app;
    admin = token;
  },
);

describe('instance settings', () => {
  it('reads defaults, updates the fields given, validates and persists', async () => {
    const get = await t.request({ method: 'GET', url: '/api/config/settings', token: admin });
    expect(get.json()).toEqual({ data: { mfaRequired: false, siteName: 'Vellum', publicUrl: null, defaultLocale: 'en' } });
    const put = await t.request({
      method: 'PUT',
      url: '/api/config/settings',
      token: admin,
      payload: { siteName: 'My Site', publicUrl: 'https://cms.example/' },
    });
    expect(put.json().data).toEqual({ mfaRequired: false, siteName: 'My Site', publicUrl: 'https://cms.example', defaultLocale: 'en' });
    const bad = await t.request({
      method: 'PUT',
      url: '/api/config/settings',
      token: admin,
      payload: { defaultLocale: 'English!', publicUrl: 'javascript:alert(1)', siteName: '' },
    });
    expect(bad.statusCode).toBe(422);
    expect(detailFields(bad)).toEqual(['defaultLocale', 'publicUrl', 'siteName']);
    const unknown = await t.request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { theme: 'dark' } });
    expect(unknown.statusCode).toBe(422);
    const wrongType = await t.request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { mfaRequired: 'yes' } });
    expect(wrongType.statusCode).toBe(422);
    expect(
      (await t.request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { mfaRequired: true } })).json().data
        .mfaRequired,
    ).toBe(true);
    await t.request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { mfaRequired: false } });
  });

  it('is effective on another node at once (same database)', async () => {
    await t.request({ method: 'PUT', url: '/api/config/settings', token: admin, payload: { siteName: 'Shared Name' } });
    const other = await createApp(resolveConfig({ database: { url: t.db.url }, security: { bcryptRounds: 4 }, schemas: TEST_SCHEMAS }, {}));
    try {
      const token = (
        await other.server.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: ADMIN.username, password: ADMIN.password },
        })
      ).json().data.token;
      const res = await other.server.inject({ method: 'GET', url: '/api/config/settings', headers: { authorization: `Bearer ${token}` } });
      expect(res.json().data.siteName).toBe('Shared Name');
    } finally {
      await other.close();
    }
  });

  it('access: settings:read / settings:write', async () => {
    const reader = await t.userToken('viewer', ['settings:read']);
    const viewer = await t.userToken('viewer');
    expect((await t.request({ method: 'GET', url: '/api/config/settings' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/config/settings', token: viewer })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/config/settings', token: reader })).statusCode).toBe(200);
    expect((await t.request({ method: 'PUT', url: '/api/config/settings', token: reader, payload: { siteName: 'x' } })).statusCode).toBe(
      403,
    );
    expect((await t.request({ method: 'PUT', url: '/api/config/settings', payload: { siteName: 'x' } })).statusCode).toBe(401);
  });
});

describe('studio configuration', () => {
  it('GET /config/studio needs studio:access and reflects settings and config', async () => {
    expect((await t.request({ method: 'GET', url: '/api/config/studio' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/config/studio', token: await t.userToken('api') })).statusCode).toBe(403);
    const res = await t.request({ method: 'GET', url: '/api/config/studio', token: await t.userToken('viewer') });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ siteName: 'Shared Name', pageSize: 50, features: { documents: true } });
  });

  it('GET /config/structure follows studio.structure and leaves out what the caller cannot read', async () => {
    const all = await t.request({ method: 'GET', url: '/api/config/structure', token: admin });
    expect(all.json().data).toEqual([
      {
        title: 'Blog',
        items: [
          { kind: 'list', schema: 'post', title: 'Post' },
          { kind: 'list', schema: 'author', title: 'Writers' },
        ],
      },
      { title: 'Private', items: [{ kind: 'list', schema: 'secret', title: 'Secret' }] },
    ]);
    const postOnly = await t.userToken('api', ['studio:access', 'post:read']);
    expect((await t.request({ method: 'GET', url: '/api/config/structure', token: postOnly })).json().data).toEqual([
      { title: 'Blog', items: [{ kind: 'list', schema: 'post', title: 'Post' }] },
    ]);
  });

  it('without studio.structure: one Content group, singletons marked', async () => {
    const plain = await startTestApp({ schemas: TEST_SCHEMAS });
    try {
      const res = await plain.request({
        method: 'GET',
        url: '/api/config/structure',
        token: await plain.login(ADMIN.username, ADMIN.password),
      });
      expect(res.json().data[0].title).toBe('Content');
      expect(res.json().data[0].items.find((i: { schema: string }) => i.schema === 'site')).toEqual({
        kind: 'singleton',
        schema: 'site',
        title: 'Site settings',
      });
    } finally {
      await plain.close();
    }
  });

  it('a structure naming a missing schema is a config problem', () => {
    expect(() => resolveConfig({ schemas: TEST_SCHEMAS, studio: { structure: [{ title: 'X', items: ['nope'] }] } }, {})).toThrow(
      /studio.structure\[0\].items\[0\]/,
    );
  });
});
