import { describe, expect, it } from 'vitest';
import { createApp, resolveConfig, type App } from '../../packages/server/src/index.js';
import { ADMIN } from '../helpers/app.js';
import { withTestDatabase } from '../helpers/database.js';
import type { JsonObject } from '../helpers/json-object.js';

/**
 * Switching `localized` on and off for a field with stored values loses nothing
 * (docs/localization.md, "Schema changes"): on, the stored value is the default locale's; off,
 * the default locale's value is the shared one; the other locales' values stay in the revisions.
 */
const LOCALES = [{ code: 'en' }, { code: 'de' }];
const schemas = (localized: boolean) => [
  {
    name: 'page',
    title: 'Page',
    fields: [
      { name: 'title', type: 'string', required: true, indexed: true, localized },
      { name: 'code', type: 'string' },
    ],
  },
];
/** `localized` undefined: no locales configured at all. */
const start = (url: string, localized: boolean | undefined) =>
  createApp(
    resolveConfig(
      {
        database: { url },
        security: { bcryptRounds: 4, adminUser: ADMIN },
        ...(localized === undefined ? {} : { locales: LOCALES }),
        schemas: schemas(localized === true),
      },
      {},
    ),
  );

async function withApp<T>(
  url: string,
  localized: boolean | undefined,
  fn: (call: (method: string, path: string, body?: object) => Promise<JsonObject>) => Promise<T>,
): Promise<T> {
  const app: App = await start(url, localized);
  try {
    const login = await app.server.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: ADMIN.username, password: ADMIN.password },
    });
    const token = login.json().data.token as string;
    return await fn(async (method, path, body) => {
      const res = await app.server.inject({
        method: method as 'GET',
        url: `/api/documents/${path}`,
        headers: { authorization: `Bearer ${token}` },
        ...(body ? { payload: body } : {}),
      });
      expect(res.statusCode, `${method} ${path}: ${res.body}`).toBeLessThan(300);
      return res.json();
    });
  } finally {
    await app.close();
  }
}

describe('switching localized on and off', () => {
  it('keeps every value: on, the stored one is the default locale’s; off, the default’s is kept and the rest stay in revisions', async () => {
    await withTestDatabase(async (db) => {
      const id = await withApp(db.url, false, async (call) => {
        const made = await call('POST', 'page', { title: 'Stored before', code: 'a' });
        await call('PATCH', `page/${made.data._id}`, { title: 'Edited before' });
        return made.data._id as string;
      });

      await withApp(db.url, true, async (call) => {
        expect((await call('GET', `page/${id}?locale=*`)).data).toMatchObject({ title: { en: 'Edited before' }, code: 'a' });
        // German has no fallback: no title until it has one of its own.
        expect((await call('GET', `page/${id}?locale=de`)).data).not.toHaveProperty('title');
        await call('PATCH', `page/${id}?locale=de`, { title: 'Auf Deutsch' });
        expect((await call('GET', `page/${id}?locale=*`)).data.title).toEqual({ en: 'Edited before', de: 'Auf Deutsch' });
        // The default locale's queries read the value stored before the switch.
        expect((await call('GET', 'page?filter[title]=Edited%20before')).data.map((d: JsonObject) => d._id)).toEqual([id]);
        expect((await call('GET', 'page?locale=de&filter[title]=Auf%20Deutsch')).data.map((d: JsonObject) => d._id)).toEqual([id]);
      });

      await withApp(db.url, false, async (call) => {
        const doc = (await call('GET', `page/${id}`)).data;
        expect(doc).toMatchObject({ title: 'Edited before', code: 'a', _locale: 'en' });
        expect(doc).not.toHaveProperty('_locales');
        // A write drops the values of a field no longer localized from the document…
        await call('PATCH', `page/${id}`, { code: 'b' });
        // …and every revision is still there, the German title in the one before it.
        const revisions = (await call('GET', `page/${id}/revisions?locale=*`)).data as JsonObject[];
        expect(revisions.map((r) => r._rev)).toEqual([4, 3, 2, 1]);
        expect(revisions.map((r) => (r.data as JsonObject).title)).toEqual([
          'Edited before',
          'Edited before',
          'Edited before',
          'Stored before',
        ]);
      });

      // Switched on again, the German title does not come back from the stored row, only from a restore.
      await withApp(db.url, true, async (call) => {
        expect((await call('GET', `page/${id}?locale=*`)).data.title).toEqual({ en: 'Edited before' });
        await call('POST', `page/${id}/revisions/3/restore`);
        expect((await call('GET', `page/${id}?locale=*`)).data.title).toEqual({ en: 'Edited before', de: 'Auf Deutsch' });
      });

      // Without locales in the config any more, documents are served with their default-locale values only.
      await withApp(db.url, undefined, async (call) => {
        const doc = (await call('GET', `page/${id}`)).data;
        expect(doc.title).toBe('Edited before');
        expect(Object.keys(doc).filter((k) => k.startsWith('_locale'))).toEqual([]);
        const listed = (await call('GET', 'page')).data[0];
        expect(Object.keys(listed).filter((k) => k.startsWith('_locale'))).toEqual([]);
      });
    });
  });
});
