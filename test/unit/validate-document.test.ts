import { describe, expect, it } from 'vitest';
import type { SchemaDef } from '../../packages/server/src/config/types.js';
import { validateDocument } from '../../packages/server/src/domain/documents/validate-document.js';
import { SchemaRegistry } from '../../packages/server/src/domain/schemas/schema-registry.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// The document rules of docs/api.md ("Schemas") on the HTTP suites' content model,
// called directly: no app, no database.
const registry = new SchemaRegistry(TEST_SCHEMAS as SchemaDef[]);
const post = registry.get('post')!;
const validate = (input: Record<string, unknown>, applyDefaults = true) => validateDocument(post, input, applyDefaults);
const errorsOf = (input: Record<string, unknown>, applyDefaults = true) => validate(input, applyDefaults).errors;

describe('validateDocument', () => {
  it('a valid body comes back normalised, with no errors', () => {
    const r = validate({
      title: 'Hello',
      price: 12.5,
      views: 3,
      tags: ['a', 'b'],
      seo: { title: 'T' },
      location: { lat: 52.5, lng: 13.4 },
      publishedOn: '2026-02-28',
      publishAt: '2026-03-01T12:00:00+01:00',
      website: 'https://example.com/x',
      meta: { any: ['thing'] },
    });
    expect(r.errors).toEqual([]);
    expect(r.data).toMatchObject({ title: 'Hello', price: 12.5, tags: ['a', 'b'], seo: { title: 'T' } });
    // Date-times are stored in UTC with milliseconds, so stored values compare as text.
    expect(r.data.publishAt).toBe('2026-03-01T11:00:00.000Z');
  });

  it('applies defaults on create only', () => {
    expect(validate({ title: 'x' }, true).data.featured).toBe(false);
    expect(validate({ title: 'x' }, false).data).not.toHaveProperty('featured');
  });

  it('a required field absent or null is an error; with applyDefaults off (updates) too', () => {
    expect(errorsOf({})).toContainEqual({ field: 'title', message: 'is required' });
    expect(errorsOf({ title: null })).toContainEqual({ field: 'title', message: 'is required' });
    expect(errorsOf({}, false)).toContainEqual({ field: 'title', message: 'is required' });
  });

  it('unknown fields are errors with their dotted path; system fields at the top level are ignored', () => {
    expect(errorsOf({ title: 'x', nope: 1, seo: { other: 1 } })).toEqual([
      { field: 'nope', message: 'unknown field' },
      { field: 'seo.other', message: 'unknown field' },
    ]);
    expect(errorsOf({ title: 'x', _id: 'abc', _rev: 3 })).toEqual([]);
  });

  it('collects every error of a body, each at its dotted path', () => {
    const errors = errorsOf({
      title: '',
      price: -1,
      views: 1.5,
      tags: ['a', 1, null],
      seo: { title: 'x'.repeat(61) },
      location: { lat: 91, lng: 0 },
      publishedOn: '2026-02-30',
      publishAt: '2026-03-01T12:00:00',
      website: 'javascript:alert(1)',
      contact: 'not-an-email',
      category: 'gossip',
      sku: 'lower-case',
      featured: 'yes',
    }).map((e) => e.field);
    expect(errors.sort()).toEqual(
      [
        'title',
        'price',
        'views',
        'tags.1',
        'tags.2',
        'seo.title',
        'location.lat',
        'publishedOn',
        'publishAt',
        'website',
        'contact',
        'category',
        'sku',
        'featured',
      ].sort(),
    );
  });

  it('lengths count characters, not UTF-16 units', () => {
    expect(errorsOf({ title: '😀'.repeat(200) })).toEqual([]);
    expect(errorsOf({ title: '😀'.repeat(201) })).toEqual([{ field: 'title', message: 'must be at most 200 characters' }]);
  });

  it('array limits and items', () => {
    expect(errorsOf({ title: 'x', tags: ['1', '2', '3', '4', '5', '6'] })).toEqual([
      { field: 'tags', message: 'must have at most 5 items' },
    ]);
    expect(errorsOf({ title: 'x', tags: 'a' })).toEqual([{ field: 'tags', message: 'must be an array' }]);
  });

  it('slugs are slugified; an empty one is left for the write to generate from its source', () => {
    expect(validate({ title: 'x', slug: 'Hello World!' }).data.slug).toEqual({ current: 'hello-world' });
    expect(validate({ title: 'x', slug: { current: 'A b' } }).data.slug).toEqual({ current: 'a-b' });
    const empty = validate({ title: 'x', slug: '!!!' });
    expect(empty.errors).toEqual([]);
    expect(empty.emptySlugs.map((s) => s.field.name)).toEqual(['slug']);
    expect(validate({ title: 'x' }).emptySlugs.map((s) => s.field.name)).toEqual(['slug']);
    expect(errorsOf({ title: 'x', slug: { current: 'a', extra: 1 } })).toEqual([
      { field: 'slug', message: 'must be a string or {current: string}' },
    ]);
  });

  it('rich text is sanitised', () => {
    const content = validate({ title: 'x', content: '<p onclick="x()">hi<script>alert(1)</script></p>' }).data.content as string;
    expect(content).toContain('hi');
    expect(content).not.toMatch(/script|onclick/);
  });

  it('references and media are collected with their paths and targets, for one check afterwards', () => {
    const r = validate({ title: 'x', author: 'a1', related: ['p1', 'p2'], cover: 'm1' });
    expect(r.errors).toEqual([]);
    expect(r.references).toEqual([
      { path: 'author', id: 'a1', to: ['author'] },
      { path: 'related.0', id: 'p1', to: ['post'] },
      { path: 'related.1', id: 'p2', to: ['post'] },
    ]);
    expect(r.media).toEqual([{ path: 'cover', id: 'm1', accept: ['image/'] }]);
    expect(errorsOf({ title: 'x', author: 'not an id!' })).toEqual([{ field: 'author', message: 'must be a document id' }]);
  });

  it('dates must exist in the calendar', () => {
    expect(errorsOf({ title: 'x', publishedOn: '2024-02-29' })).toEqual([]);
    expect(errorsOf({ title: 'x', publishedOn: '2023-02-29' })).toEqual([{ field: 'publishedOn', message: 'must be a date (YYYY-MM-DD)' }]);
  });
});
