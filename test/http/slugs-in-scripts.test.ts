import { describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import type { JsonObject } from '../helpers/json-object.js';

/**
 * Slugs of titles in every script (docs/api.md, "Slug rules"): transliterated where the script has
 * a Latin spelling, by the rules of the locale written; kept as Unicode letters where it has none;
 * never empty for a title with letters.
 */
const app = {} as { t: TestApp; admin: string };
useAdminApp(
  () =>
    startTestApp({
      locales: [{ code: 'sv', name: 'Svenska' }, { code: 'de' }, { code: 'da', fallback: 'sv' }, { code: 'ja' }],
      schemas: [
        {
          name: 'post',
          title: 'Post',
          fields: [
            { name: 'title', type: 'string', required: true, localized: true },
            { name: 'slug', type: 'slug', source: 'title', localized: true },
            { name: 'name', type: 'string' },
            { name: 'handle', type: 'slug', source: 'name', required: true },
          ],
        },
      ],
    }),
  (t, token) => ((app.t = t), (app.admin = token)),
);

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>) =>
  app.t.request({ method, url: `/api/documents/${url}`, token: app.admin, ...(payload ? { payload } : {}) });
const ok = async (method: 'POST' | 'PATCH' | 'GET', url: string, payload?: Record<string, unknown>): Promise<JsonObject> => {
  const res = await call(method, url, payload);
  expect(res.statusCode, res.body).toBe(method === 'POST' ? 201 : 200);
  return res.json().data;
};

describe('slugs in every script', () => {
  it('transliterates each locale’s title by that locale’s rules, and a shared slug by the default locale’s', async () => {
    const doc = await ok('POST', 'post?locale=*', {
      title: { sv: 'Räksmörgås', de: 'Räksmörgås', da: 'Blåbærgrød' },
      name: 'Smörgåsbord',
    });
    expect(doc.slug).toEqual({ sv: { current: 'raksmorgas' }, de: { current: 'raeksmoergas' }, da: { current: 'blaabaergroed' } });
    // `handle` is shared: its values are the default locale's (sv).
    expect(doc.handle).toEqual({ current: 'smorgasbord' });
    // A slug sent in a locale is normalised by that locale's rules too.
    const german = await ok('PATCH', `post/${doc._id}?locale=de`, { slug: 'Öl und Käse' });
    expect(german.slug).toEqual({ current: 'oel-und-kaese' });
    const swedish = await ok('PATCH', `post/${doc._id}?locale=sv`, { slug: 'Öl och Ost' });
    expect(swedish.slug).toEqual({ current: 'ol-och-ost' });
  });

  it('keeps the letters of a script without transliteration; the slug filters and round-trips percent-encoded', async () => {
    const doc = await ok('POST', 'post?locale=*', { title: { sv: 'Tokyo', ja: '東京タワーの夜景' }, name: 'Привет, мир' });
    expect(doc.slug).toEqual({ sv: { current: 'tokyo' }, ja: { current: '東京タワーの夜景' } });
    expect(doc.handle).toEqual({ current: 'privet-mir' });
    const found = await call('GET', `post?locale=ja&filter[slug]=${encodeURIComponent('東京タワーの夜景')}`);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().data.map((d: JsonObject) => d._id)).toEqual([doc._id]);
    // The same title again in that locale moves on with a suffix, as in any script.
    const again = await ok('POST', 'post?locale=*', { title: { sv: 'Tokyo igen', ja: '東京タワーの夜景' }, name: 'Привет, мир' });
    expect(again.slug).toEqual({ sv: { current: 'tokyo-igen' }, ja: { current: '東京タワーの夜景-2' } });
    expect(again.handle).toEqual({ current: 'privet-mir-2' });
  });

  it('a required slug whose source has no letter or digit is 422, naming it', async () => {
    const res = await call('POST', 'post', { title: 'Emoji', name: '🚀 — 🎉' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.details).toEqual([{ field: 'handle', message: 'is required' }]);
    // A digit is enough.
    const digit = await ok('POST', 'post', { title: 'Digit', name: '🚀 2027' });
    expect(digit.handle).toEqual({ current: '2027' });
  });
});
