import { describe, expect, it } from 'vitest';
import { bulkInsertDocuments } from '../../packages/server/src/index.js';
import { AppError } from '../../packages/server/src/errors.js';
import { EXAMPLE_LOCALES_RESOLVED } from '../helpers/example-locales.js';
import type { JsonObject } from '../helpers/json-object.js';
import { useLocalizedApp } from '../helpers/localized-app.js';

/**
 * Localization beyond a document's reads and writes (docs/localization.md): bulk inserts in a
 * locale, translation status (`_untranslated`, `untranslated=`), events and drafts in the
 * `locale=*` shape, and what `/config` and the OpenAPI document tell clients.
 */
const { app, call, ok } = useLocalizedApp();

describe('bulk insert (imports, seeding) in a locale', () => {
  it('stores what a create in the same locale stores: served per locale, filtered through the chain, searched', async () => {
    const body = { title: { en: 'Bulk one', de: 'Masse eins' }, rank: { en: 1, 'de-CH': 7 }, code: 'b1' };
    const made = await ok('POST', 'page?locale=*', { ...body, code: 'b0' });
    const { ids } = await bulkInsertDocuments(app.t.app.services, { type: 'page', locale: '*', documents: [body] });
    const bulk = await ok('GET', `page/${ids[0]}?locale=*`);
    const created = await ok('GET', `page/${made._id}?locale=*`);
    const fieldsOf = (d: JsonObject) => Object.fromEntries(Object.entries(d).filter(([k]) => !k.startsWith('_') && k !== 'code'));
    expect(fieldsOf(bulk)).toEqual(fieldsOf(created));
    expect(await ok('GET', `page/${ids[0]}?locale=de-CH`)).toMatchObject({ title: 'Masse eins', rank: 7, _fallbacks: { title: 'de' } });
    const found = await call('GET', 'page?locale=de-CH&filter[title]=Masse eins&filter[code]=b1');
    expect(found.json().data.map((d: JsonObject) => d._id)).toEqual([ids[0]]);
    const searched = await call('GET', 'page?locale=de&search=masse&filter[code]=b1');
    expect(searched.json().data.map((d: JsonObject) => d._id)).toEqual([ids[0]]);

    // One locale's values, as `?locale=de` takes them: the default locale's title is still required.
    const german = await bulkInsertDocuments(app.t.app.services, {
      type: 'page',
      locale: 'de',
      documents: [{ title: 'Nur Deutsch' }],
    }).catch((e: unknown) => e);
    expect((german as AppError).details).toEqual([{ field: 'documents.0.title', message: 'is required' }]);
    // An unknown locale is refused as a request's is.
    const refused = await bulkInsertDocuments(app.t.app.services, { type: 'page', locale: 'es', documents: [] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('INVALID_INPUT');
  });
});

describe('translation status', () => {
  it('names the fields a locale has not translated, and lists the documents that have some (`untranslated=`)', async () => {
    const a = await ok('POST', 'page?locale=*', { title: { en: 'Both', de: 'Beide', 'de-CH': 'Beidi' }, code: 'tA' });
    const b = await ok('POST', 'page?locale=*', { title: { en: 'Half', de: 'Halb' }, rank: { en: 1 }, code: 'tB' });
    const codes = (res: { json(): { data: JsonObject[] } }) => res.json().data.map((d) => d.code);

    expect(await ok('GET', `page/${a._id}?locale=de-CH`)).toMatchObject({ _untranslated: [] });
    // de-CH serves b's title from de, but has translated neither it nor the rank.
    expect(await ok('GET', `page/${b._id}?locale=de-CH`)).toMatchObject({ _untranslated: ['title', 'rank'], _fallbacks: { title: 'de' } });
    expect(await ok('GET', `page/${b._id}?locale=de`)).toMatchObject({ _untranslated: ['rank'] });
    // The default locale has nothing to translate: no marker.
    expect(await ok('GET', `page/${b._id}`)).not.toHaveProperty('_untranslated');

    const list = (q: string) => call('GET', `page?filter[code][in]=tA,tB&orderBy=code&order=asc&${q}`);
    expect(codes(await list('locale=de-CH&untranslated=de-CH'))).toEqual(['tB']);
    expect(codes(await list('untranslated=de'))).toEqual(['tB']);
    expect(codes(await list('untranslated=fr'))).toEqual(['tA', 'tB']);
    expect((await list('untranslated=de-CH&limit=0')).json().meta.total).toBe(1);
    for (const bad of ['en', 'xx', '*']) {
      const res = await list(`untranslated=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'INVALID_INPUT', details: [{ field: 'untranslated' }] });
    }
  });
});

describe('events and drafts carry every locale', () => {
  it('a write in one locale announces the document with every locale (`locale=*` shape)', async () => {
    const { _id } = await ok('POST', 'page?locale=*', { title: { en: 'Evented', de: 'Ereignis' }, code: 'e1' });
    const seen: Array<{ type: string; data: Record<string, unknown> }> = [];
    const stop = app.t.app.services.events.subscribe((e) => {
      // On PostgreSQL the create's own event may still be on its way from the channel.
      if (e.subject.id === _id && e.type === 'document.updated') seen.push(e);
    });
    try {
      await ok('PATCH', `page/${_id}?locale=fr`, { title: 'Événement' });
      await expect.poll(() => seen.length).toBe(1);
    } finally {
      stop();
    }
    expect(seen[0].type).toBe('document.updated');
    expect(seen[0].data).toMatchObject({ title: { en: 'Evented', de: 'Ereignis', fr: 'Événement' }, code: 'e1', _locale: '*' });
    expect(seen[0].data).not.toHaveProperty('_locales');
  });

  it('a pending draft holds every locale; the live version keeps its own until published', async () => {
    const { _id } = await ok('POST', 'page?locale=*', { title: { en: 'Live', de: 'Live DE' }, _status: 'published' });
    await ok('PATCH', `page/${_id}?locale=de&draft=true`, { title: 'Entwurf' });
    await ok('PATCH', `page/${_id}?locale=fr&draft=true`, { title: 'Brouillon' });
    const draft = await ok('GET', `page/${_id}?perspective=drafts&locale=*`);
    expect(draft).toMatchObject({ _version: 'draft', title: { en: 'Live', de: 'Entwurf', fr: 'Brouillon' } });
    expect((await ok('GET', `page/${_id}?locale=*`)).title).toEqual({ en: 'Live', de: 'Live DE' });
    const res = await app.t.request({ method: 'POST', url: `/api/documents/page/${_id}/publish`, token: app.admin });
    expect(res.statusCode, res.body).toBe(200);
    expect((await ok('GET', `page/${_id}?locale=*`)).title).toEqual({ en: 'Live', de: 'Entwurf', fr: 'Brouillon' });
    expect(res.json().data).toMatchObject({ title: 'Live', _locale: 'en' });
  });
});

describe('what clients are told', () => {
  it('/config/schemas carries the locales as meta.locales and localized: true on each localized field; /config/studio the locales', async () => {
    const locales = EXAMPLE_LOCALES_RESOLVED;
    const schemas = await app.t.request({ method: 'GET', url: '/api/config/schemas' });
    expect(schemas.json().meta).toEqual({ locales });
    const page = schemas.json().data.find((s: JsonObject) => s.name === 'page');
    const flags = Object.fromEntries(page.fields.map((f: JsonObject) => [f.name, f.localized === true]));
    expect(flags).toEqual({ title: true, rank: true, tags: true, seo: true, code: false, author: false });
    expect(page.jsonSchema.properties.title['x-vellum-localized']).toBe(true);
    const studio = await app.t.request({ method: 'GET', url: '/api/config/studio', token: app.admin });
    expect(studio.json().data.locales).toEqual(locales);
  });
});

describe('OpenAPI', () => {
  it('names the configured locales and * on every document read and write', async () => {
    const res = await app.t.request({ method: 'GET', url: '/api/openapi.json' });
    const paths = res.json().paths as Record<
      string,
      Record<string, { parameters?: Array<{ name: string; in: string; schema: { enum?: string[] } }> }>
    >;
    const locale = (path: string, method: string) =>
      paths[path][method].parameters?.find((p) => p.in === 'query' && p.name === 'locale')?.schema.enum;
    for (const [path, method] of [
      ['/api/documents/page', 'get'],
      ['/api/documents/page', 'post'],
      ['/api/documents/page/{id}', 'get'],
      ['/api/documents/page/{id}', 'patch'],
      ['/api/documents/page/{id}', 'put'],
      ['/api/collections/page', 'get'],
    ]) {
      expect(locale(path, method), `${method} ${path}`).toEqual(['en', 'de', 'de-CH', 'fr', '*']);
    }
    // A list's `untranslated` names the locales but the default.
    const untranslated = paths['/api/documents/page'].get.parameters?.find((p) => p.name === 'untranslated');
    expect(untranslated?.schema.enum).toEqual(['de', 'de-CH', 'fr']);
  });
});
