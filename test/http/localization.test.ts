import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../helpers/json-object.js';
import { useLocalizedApp } from '../helpers/localized-app.js';

/**
 * Localization (docs/localization.md): localized fields read in a locale (`_locale`,
 * `_fallbacks`), `locale=*`, writes per locale that never touch another locale's values,
 * references per locale, filters and order through the chain, unique values and slugs per locale.
 * Bulk inserts, translation status, events, drafts and what clients are told:
 * localization-surfaces.test.ts.
 */
const { app, call, ok } = useLocalizedApp();

describe('reading in a locale', () => {
  let id: string;
  beforeAll(async () => {
    id = (await ok('POST', 'page', { title: 'Hello', rank: 1, code: 'p1', seo: { description: 'About' } }))._id as string;
    await ok('PATCH', `page/${id}?locale=de`, { title: 'Hallo', tags: ['gruss'] });
  });

  it('serves the default locale without a locale, marking it', async () => {
    const doc = await ok('GET', `page/${id}`);
    expect(doc).toMatchObject({ title: 'Hello', rank: 1, code: 'p1', seo: { description: 'About' }, _locale: 'en', _fallbacks: {} });
    expect(doc).not.toHaveProperty('tags');
    expect(doc).not.toHaveProperty('_locales');
  });

  it('serves each localized field from the first locale of the chain that has one, naming the fallbacks', async () => {
    const de = await ok('GET', `page/${id}?locale=de`);
    expect(de).toMatchObject({ title: 'Hallo', tags: ['gruss'], code: 'p1', _locale: 'de', _fallbacks: {} });
    // de has no fallback: its missing rank and seo are absent, not the English ones.
    expect(de).not.toHaveProperty('rank');
    expect(de).not.toHaveProperty('seo');

    const ch = await ok('GET', `page/${id}?locale=de-CH`);
    expect(ch).toMatchObject({ title: 'Hallo', tags: ['gruss'], _locale: 'de-CH', _fallbacks: { title: 'de', tags: 'de' } });

    const fr = await ok('GET', `page/${id}?locale=fr`);
    expect(fr).toMatchObject({ title: 'Hello', rank: 1, seo: { description: 'About' }, _locale: 'fr' });
    expect(fr._fallbacks).toEqual({ title: 'en', rank: 'en', seo: 'en' });
  });

  it('locale=* serves every locale of each localized field; codes compare case-insensitively', async () => {
    const all = await ok('GET', `page/${id}?locale=*`);
    expect(all).toMatchObject({ title: { en: 'Hello', de: 'Hallo' }, rank: { en: 1 }, tags: { de: ['gruss'] }, code: 'p1', _locale: '*' });
    expect(all).not.toHaveProperty('_fallbacks');
    expect((await ok('GET', `page/${id}?locale=DE-ch`))._locale).toBe('de-CH');
  });

  it('refuses an unknown locale with 400 INVALID_INPUT on every read and write', async () => {
    for (const [method, url] of [
      ['GET', `page/${id}?locale=es`],
      ['GET', 'page?locale=es'],
      ['GET', `page/${id}/revisions?locale=xx-YY`],
      ['PATCH', `page/${id}?locale=es`],
      ['POST', 'page?locale=es'],
    ] as const) {
      const res = await call(method, url, method === 'GET' ? undefined : { title: 'x' });
      expect(res.statusCode, `${method} ${url}`).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'INVALID_INPUT', details: [{ field: 'locale' }] });
    }
  });

  it('fields= keeps the markers; lists and expanded references are served in the same locale', async () => {
    const author = await ok('POST', 'author', { name: 'Ann', bio: 'Writes' });
    await ok('PATCH', `author/${author._id}?locale=de`, { bio: 'Schreibt' });
    const page = await ok('POST', 'page', { title: 'With author', author: author._id, code: 'p2' });
    const got = await ok('GET', `page/${page._id}?locale=de-CH&expand=author&fields=title,author`);
    expect(got).toMatchObject({ _locale: 'de-CH', _fallbacks: {}, author: { name: 'Ann', bio: 'Schreibt', _locale: 'de-CH' } });
    expect(got).not.toHaveProperty('title');
    expect((got.author as JsonObject)._fallbacks).toEqual({ bio: 'de' });

    const res = await call('GET', 'page?locale=de&filter[code]=p2&expand=author');
    expect(res.json().data[0]).toMatchObject({ _locale: 'de', author: { bio: 'Schreibt' } });
  });

  it('revisions keep every locale and are served in the one asked for', async () => {
    const res = await call('GET', `page/${id}/revisions?locale=de`);
    expect(res.statusCode, res.body).toBe(200);
    const [latest, first] = res.json().data;
    expect(latest.data).toMatchObject({ title: 'Hallo', _locale: 'de' });
    expect(first.data).not.toHaveProperty('title');
  });
});

describe('writing in a locale', () => {
  it('POST ?locale=… needs the default locale’s required values, and writes that locale’s', async () => {
    const res = await call('POST', 'page?locale=de', { title: 'Nur deutsch' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details).toEqual([{ field: 'title', message: 'is required' }]);

    const made = await ok('POST', 'page?locale=*', { title: { en: 'Both', de: 'Beide' }, code: 'w1' });
    expect(made).toMatchObject({ title: { en: 'Both', de: 'Beide' }, _locale: '*' });
  });

  it('PATCH null removes that locale’s value only; PUT replaces that locale and the shared fields, never another locale', async () => {
    const { _id } = await ok('POST', 'page?locale=*', { title: { en: 'One', de: 'Eins', fr: 'Un' }, rank: { en: 1, de: 2 }, code: 'w2' });
    const patched = await ok('PATCH', `page/${_id}?locale=de`, { rank: null, code: 'w2b' });
    expect(patched).toMatchObject({ title: 'Eins', code: 'w2b', _locale: 'de' });
    expect(patched).not.toHaveProperty('rank');
    expect(await ok('GET', `page/${_id}?locale=*`)).toMatchObject({ title: { en: 'One', de: 'Eins', fr: 'Un' }, rank: { en: 1 } });

    const put = await ok('PUT', `page/${_id}?locale=fr`, { title: 'Une', tags: ['a'] });
    expect(put).toMatchObject({ title: 'Une', tags: ['a'], rank: 1, _fallbacks: { rank: 'en' } });
    // The shared `code` was replaced (absent from the body); en and de kept every value.
    expect(put).not.toHaveProperty('code');
    const all = await ok('GET', `page/${_id}?locale=*`);
    expect(all).toMatchObject({ title: { en: 'One', de: 'Eins', fr: 'Une' }, rank: { en: 1 }, tags: { fr: ['a'] } });

    // A PUT without a locale is the default locale's: the others stay.
    await ok('PUT', `page/${_id}`, { title: 'Uno' });
    expect((await ok('GET', `page/${_id}?locale=*`)).title).toEqual({ en: 'Uno', de: 'Eins', fr: 'Une' });
  });

  it('checks values in every locale, at paths that name the locale where the writer did not', async () => {
    const { _id } = await ok('POST', 'page', { title: 'Checked' });
    const one = await call('PATCH', `page/${_id}?locale=de`, { rank: 'high' });
    expect(one.statusCode).toBe(422);
    expect(one.json().error.details.map((d: { field: string }) => d.field)).toEqual(['rank']);

    const all = await call('PATCH', `page/${_id}?locale=*`, { rank: { de: 'high', es: 3 }, title: 'flat' });
    expect(all.statusCode).toBe(422);
    expect(all.json().error.details).toEqual([
      { field: 'title', message: 'must be an object of locale codes (locale=*), such as {"en": …}' },
      { field: 'rank.es', message: 'unknown locale; expected one of en, de, de-CH, fr' },
    ]);
    const nested = await call('PATCH', `page/${_id}?locale=*`, { rank: { de: 'high' } });
    expect(nested.json().error.details.map((d: { field: string }) => d.field)).toEqual(['rank.de']);
  });

  it('a body cannot write the locale store directly', async () => {
    const { _id } = await ok('POST', 'page', { title: 'Sealed', _locales: { de: { title: 'Sneaky' } } });
    expect((await ok('GET', `page/${_id}?locale=*`)).title).toEqual({ en: 'Sealed' });
  });
});

describe('references in localized fields', () => {
  it("keeps each locale's reference as an edge of its own: a write in several locales succeeds, and a target referenced in one locale only cannot be deleted", async () => {
    const [a, b, c] = await Promise.all(['Ada', 'Ben', 'Cy'].map((name) => ok('POST', 'author', { name })));
    const pupil = await ok('POST', 'author', { name: 'Pupil', mentor: a._id });
    await ok('PATCH', `author/${pupil._id}?locale=de`, { mentor: b._id });
    await ok('PUT', `author/${pupil._id}?locale=*`, { name: 'Pupil', mentor: { en: a._id, de: b._id, fr: c._id } });
    expect((await ok('GET', `author/${pupil._id}?locale=*`)).mentor).toEqual({ en: a._id, de: b._id, fr: c._id });

    const refused = await app.t.request({ method: 'DELETE', url: `/api/documents/author/${c._id}`, token: app.admin });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error.details).toEqual([{ field: 'mentor[fr]', message: `referenced by author ${pupil._id}` }]);
    // A reference to a missing document in another locale is named as the writer wrote it.
    const missing = await call('PATCH', `author/${pupil._id}?locale=de`, { mentor: '01a00000-0000-7000-8000-000000000000' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.details).toEqual([{ field: 'mentor', message: expect.stringContaining('references a missing document') }]);

    // Taken out of that locale, the target can go.
    await ok('PATCH', `author/${pupil._id}?locale=fr`, { mentor: null });
    const deleted = await app.t.request({ method: 'DELETE', url: `/api/documents/author/${c._id}`, token: app.admin });
    expect(deleted.statusCode, deleted.body).toBe(200);
  });
});

describe('querying through the chain', () => {
  beforeAll(async () => {
    // q1: de-CH has its own; q2: de-CH falls back to de; q3: only English (de-CH and de absent).
    await ok('POST', 'page?locale=*', { title: { en: 'Apple', de: 'Apfel', 'de-CH': 'Öpfel' }, rank: { en: 3, 'de-CH': 1 }, code: 'q1' });
    await ok('POST', 'page?locale=*', { title: { en: 'Banana', de: 'Banane' }, rank: { en: 1, de: 2 }, code: 'q2' });
    await ok('POST', 'page?locale=*', { title: { en: 'Cherry' }, rank: { en: 2 }, tags: { de: ['rot'] }, code: 'q3' });
  });

  const codes = async (query: string) => {
    const res = await call('GET', `page?filter[code][startsWith]=q&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.map((d: JsonObject) => d.code);
  };

  it('filters match the value the chain serves, for every operator', async () => {
    expect(await codes('locale=de-CH&filter[title]=Banane')).toEqual(['q2']);
    expect(await codes('locale=de-CH&filter[title]=Apfel')).toEqual([]);
    expect(await codes('locale=de-CH&filter[title][contains]=pfel')).toEqual(['q1']);
    expect(await codes('locale=de-CH&filter[title][startsWith]=Ban')).toEqual(['q2']);
    expect(await codes('locale=de-CH&filter[title][exists]=false&orderBy=code&order=asc')).toEqual(['q3']);
    expect(await codes('locale=de-CH&filter[rank][lte]=2&orderBy=code&order=asc')).toEqual(['q1', 'q2']);
    expect(await codes('locale=de-CH&filter[title][ne]=Öpfel&orderBy=code&order=asc')).toEqual(['q2', 'q3']);
    expect(await codes('locale=de-CH&filter[title][in]=Öpfel,Cherry')).toEqual(['q1']);
    expect(await codes('locale=fr&filter[title][in]=Apple,Cherry&orderBy=code&order=asc')).toEqual(['q1', 'q3']);
    expect(await codes('locale=de-CH&filter[tags]=rot')).toEqual(['q3']);
    // Without a locale, the default locale's values.
    expect(await codes('filter[title]=Apple')).toEqual(['q1']);
  });

  it('search matches the text the chain serves in that locale, and only there', async () => {
    // q1's Swiss title is its own; q2's falls back to German; q3 has English only.
    expect(await codes('locale=de-CH&search=banane')).toEqual(['q2']);
    expect(await codes('locale=de-CH&search=öpf')).toEqual(['q1']);
    expect(await codes('locale=de-CH&search=opfel')).toEqual(['q1']);
    expect(await codes('locale=de-CH&search=apfel')).toEqual([]);
    expect(await codes('locale=de&search=apfel')).toEqual(['q1']);
    // English has its own text; German words are not in it, nor is a Swiss one in German.
    expect(await codes('search=banane')).toEqual([]);
    expect(await codes('search=banana')).toEqual(['q2']);
    expect(await codes('locale=de&search=öpfel')).toEqual([]);
    // French falls back to English; a shared field's words are in every locale.
    expect(await codes('locale=fr&search=cherry')).toEqual(['q3']);
    expect(await codes('locale=de-CH&search=q3')).toEqual(['q3']);
  });

  it('orderBy a localized field orders by the value served, cursors included', async () => {
    expect(await codes('locale=de-CH&orderBy=rank&order=asc&filter[rank][exists]=true')).toEqual(['q1', 'q2']);
    expect(await codes('locale=fr&orderBy=rank&order=desc&filter[rank][exists]=true')).toEqual(['q1', 'q3', 'q2']);
    expect(await codes('locale=de-CH&orderBy=title&order=asc&filter[title][exists]=true')).toEqual(['q2', 'q1']);

    const first = await call('GET', 'page?filter[code][startsWith]=q&locale=fr&orderBy=rank&order=asc&limit=1');
    const next = await call(
      'GET',
      `page?filter[code][startsWith]=q&locale=fr&orderBy=rank&order=asc&limit=2&after=${first.json().meta.nextCursor}`,
    );
    expect([first.json().data[0].code, ...next.json().data.map((d: JsonObject) => d.code)]).toEqual(['q2', 'q3', 'q1']);
  });
});

describe('unique values and slugs per locale', () => {
  it('generates each locale’s slug from the same locale’s title, unique within that locale', async () => {
    const a = await ok('POST', 'post?locale=*', { title: { en: 'Good Morning', de: 'Guten Morgen' } });
    expect(a.slug).toEqual({ en: { current: 'good-morning' }, de: { current: 'guten-morgen' } });
    // The same German title again: the German slug moves on; the English one is its own.
    const b = await ok('POST', 'post?locale=*', { title: { en: 'Morning', de: 'Guten Morgen' } });
    expect(b.slug).toEqual({ en: { current: 'morning' }, de: { current: 'guten-morgen-2' } });
    // A slug equal to another locale's is no clash: slugs are unique per locale.
    const c = await ok('POST', 'post?locale=*', { title: { en: 'Guten Morgen', fr: 'Bonjour' } });
    expect(c.slug).toEqual({ en: { current: 'guten-morgen' }, fr: { current: 'bonjour' } });
    // A locale's first title, written later, gets its slug then.
    const patched = await ok('PATCH', `post/${a._id}?locale=fr`, { title: 'Bonjour' });
    expect(patched.slug).toEqual({ current: 'bonjour-2' });
  });

  it('an update whose slug is made again moves on past a taken one (the refused try leaves nothing behind)', async () => {
    await ok('POST', 'post', { title: 'Taken Title' });
    const other = await ok('POST', 'post', { title: 'Other' });
    const moved = await ok('PATCH', `post/${other._id}`, { title: 'Taken Title', slug: null });
    expect(moved.slug).toEqual({ current: 'taken-title-2' });
    const revisions = await call('GET', `post/${other._id}/revisions`);
    expect(revisions.json().data.map((r: JsonObject) => r._rev)).toEqual([2, 1]);
  });

  it('a unique localized value is unique among that locale’s values only, 409 naming the locale', async () => {
    await ok('POST', 'post?locale=*', { title: { en: 'U1' }, handle: { en: 'one', de: 'eins' } });
    const clash = await call('POST', 'post?locale=*', { title: { en: 'U2' }, handle: { en: 'uno', de: 'eins' } });
    expect(clash.statusCode, clash.body).toBe(409);
    expect(clash.json().error.details).toEqual([{ field: 'handle.de', message: 'is already taken' }]);
    // `eins` in English is free: another locale's value does not count.
    await ok('POST', 'post?locale=*', { title: { en: 'U3' }, handle: { en: 'eins', de: 'one' } });
    const defaultClash = await call('POST', 'post', { title: 'U4', handle: 'one' });
    expect(defaultClash.statusCode).toBe(409);
    expect(defaultClash.json().error.details).toEqual([{ field: 'handle', message: 'is already taken' }]);
  });
});
