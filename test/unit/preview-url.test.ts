import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../packages/server/src/config/index.js';
import type { FieldDef } from '../../packages/server/src/config/types.js';
import { fillPreviewUrl } from '../../packages/server/src/domain/documents/preview/fill-preview-url.js';
import { configProblems } from '../helpers/config-problems.js';

/** Preview URL templates (docs/preview.md, "Templates"): the start-up check and the fill. */
const FIELDS: FieldDef[] = [
  { name: 'title', type: 'string' },
  { name: 'slug', type: 'slug', source: 'title' },
  { name: 'views', type: 'integer' },
  { name: 'tags', type: 'array', of: { type: 'string' } },
  { name: 'seo', type: 'object', fields: [{ name: 'title', type: 'string' }] },
];
const schemaWith = (preview: unknown) => ({ schemas: [{ name: 'page', title: 'Page', fields: FIELDS, preview }] });

describe('the start-up check of preview.url', () => {
  it('accepts field paths, the system placeholders and http(s) URLs', () => {
    for (const url of [
      'https://site.example/blog/{slug.current}?preview={token}',
      'http://localhost:3001/{_type}/{_id}?t={token}&s={slug}&h={seo.title}&v={views}',
      'https://site.example/{title}',
    ]) {
      expect(configProblems(schemaWith({ url })), url).toEqual([]);
    }
    expect(resolveConfig(schemaWith({ url: 'https://site.example/{_id}' }), {}).schemas[0].preview).toEqual({
      url: 'https://site.example/{_id}',
    });
  });

  it('reports each unknown field path as one problem', () => {
    expect(configProblems(schemaWith({ url: 'https://site.example/{slug.nope}/{nosuch}/{seo.title}/{_rev}' }))).toEqual([
      'schemas[0].preview.url: unknown placeholder {slug.nope}: expected a field path of the schema, {_id}, {_type} or {token}',
      'schemas[0].preview.url: unknown placeholder {nosuch}: expected a field path of the schema, {_id}, {_type} or {token}',
      'schemas[0].preview.url: unknown placeholder {_rev}: expected a field path of the schema, {_id}, {_type} or {token}',
    ]);
  });

  it('reports a URL that is not http(s), a missing url and unknown keys', () => {
    expect(configProblems(schemaWith({ url: 'javascript:alert({_id})' }))).toEqual([
      'schemas[0].preview.url: expected an http or https URL',
    ]);
    expect(configProblems(schemaWith({ url: '/relative/{_id}' }))).toEqual(['schemas[0].preview.url: expected an http or https URL']);
    expect(configProblems(schemaWith({}))).toEqual([
      'schemas[0].preview.url: expected a URL template such as "https://site.example/{slug.current}?preview={token}"',
    ]);
    expect(configProblems(schemaWith({ url: 'https://a.example/', target: 'x' }))).toEqual(['schemas[0].preview.target: unknown setting']);
    expect(configProblems(schemaWith('https://a.example/'))).toEqual([
      'schemas[0].preview: expected an object',
      'schemas[0].preview.url: expected a URL template such as "https://site.example/{slug.current}?preview={token}"',
    ]);
  });
});

describe('documents.previewTokenTtl', () => {
  it('is a duration, 1 h by default', () => {
    expect(resolveConfig({}, {}).documents.previewTokenTtlMs).toBe(3_600_000);
    expect(resolveConfig({ documents: { previewTokenTtl: '15m' } }, {}).documents.previewTokenTtlMs).toBe(900_000);
    expect(configProblems({ documents: { previewTokenTtl: 'soon' } })).toEqual([
      'documents.previewTokenTtl: expected a duration such as "15m", "1h" or "7d"',
    ]);
  });
});

describe('fillPreviewUrl', () => {
  const doc = { _id: 'a b', _type: 'page', title: 'Héllo & bye/now?', slug: { current: 'hello-bye' }, views: 0, tags: ['x'], seo: {} };

  it('fills field paths, _id, _type and the token, each encoded with encodeURIComponent', () => {
    const url = fillPreviewUrl('https://s.example/{_type}/{slug.current}?id={_id}&t={title}&v={views}&p={token}', FIELDS, doc, 'tok.en=');
    expect(url).toBe(
      `https://s.example/page/hello-bye?id=a%20b&t=${encodeURIComponent('Héllo & bye/now?')}&v=0&p=${encodeURIComponent('tok.en=')}`,
    );
  });

  it('a slug named without .current is its current value', () => {
    expect(fillPreviewUrl('https://s.example/{slug}', FIELDS, doc, 't')).toBe('https://s.example/hello-bye');
  });

  it('a missing value, null, an object or a list becomes empty', () => {
    expect(fillPreviewUrl('https://s.example/{seo.title}|{tags}|{seo}|{slug.current}', FIELDS, { ...doc, slug: null }, 't')).toBe(
      'https://s.example/|||',
    );
    expect(fillPreviewUrl('https://s.example/{title}', FIELDS, { _id: 'x' }, 't')).toBe('https://s.example/');
  });

  it('fills every occurrence of a placeholder', () => {
    expect(fillPreviewUrl('https://s.example/{_id}/{_id}', FIELDS, doc, 't')).toBe('https://s.example/a%20b/a%20b');
  });
});
