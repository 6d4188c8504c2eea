import { describe, expect, it } from 'vitest';
import type { SchemaDef } from '../../packages/server/src/config/types.js';
import { parseListQuery } from '../../packages/server/src/domain/documents/parse-list-query.js';
import { listParamsOf } from '../../packages/server/src/http/routes/documents/list-params.js';
import { SchemaRegistry } from '../../packages/server/src/domain/schemas/schema-registry.js';
import { AppError } from '../../packages/server/src/errors.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// The list query rules of docs/api.md ("List queries") called directly: what is accepted, typed
// as the field is stored, and what is refused naming its parameter. No app, no database: the
// query string is read as the HTTP layer reads it (`listParamsOf`), then checked against the schema.
const registry = new SchemaRegistry(TEST_SCHEMAS as SchemaDef[]);
const post = registry.get('post')!;
const parse = (query: Record<string, unknown>) => parseListQuery(post, listParamsOf(query));

/** The parameter and message of the 400 a query gives. */
function refusal(query: Record<string, unknown>) {
  try {
    parse(query);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    expect(err).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    return { field: err.details?.[0]?.field, message: err.details?.[0]?.message };
  }
  throw new Error(`accepted: ${JSON.stringify(query)}`);
}

describe('parseListQuery', () => {
  it('with nothing given: newest first, the default page', () => {
    const q = parse({});
    expect(q).toMatchObject({ conditions: [], orderBy: '_createdAt', order: { direction: 'desc' }, offset: 0 });
    expect(q.limit).toBeGreaterThan(0);
    expect(q.searchWords).toBeUndefined();
    expect(q.fields).toBeUndefined();
  });

  it('filter values are typed as their field is stored; eq is the default operator', () => {
    const [price, featured, category, tags] = parse({
      'filter[price][gte]': '10',
      'filter[featured]': 'true',
      'filter[category][in]': 'news,guide',
      'filter[tags][contains]': 'x',
    }).conditions;
    expect(price).toMatchObject({ op: 'gte', value: 10 });
    expect(featured).toMatchObject({ op: 'eq', value: true });
    expect(category).toMatchObject({ op: 'in', value: ['news', 'guide'] });
    expect(tags).toMatchObject({ op: 'contains', value: 'x' });
    expect(parse({ 'filter[cover][exists]': 'false' }).conditions[0]).toMatchObject({ op: 'exists', value: false });
  });

  it('nested and system fields can be filtered and ordered by', () => {
    expect(parse({ 'filter[seo.title]': 'T' }).conditions[0]).toMatchObject({ op: 'eq', value: 'T' });
    expect(parse({ 'filter[_id][in]': 'a,b' }).conditions[0]).toMatchObject({ op: 'in', value: ['a', 'b'] });
    expect(parse({ orderBy: 'price', order: 'asc' })).toMatchObject({ orderBy: 'price', order: { direction: 'asc' } });
    expect(parse({ orderBy: '_updatedAt' }).orderBy).toBe('_updatedAt');
  });

  it('refuses unknown parameters, fields and operators, naming the parameter', () => {
    expect(refusal({ sort: 'title' })).toEqual({ field: 'sort', message: 'unknown query parameter' });
    expect(refusal({ 'filter[nope]': '1' })).toMatchObject({ field: 'filter[nope]', message: 'unknown field nope on post' });
    expect(refusal({ 'filter[title][like]': 'x' })).toMatchObject({ field: 'filter[title][like]' });
    expect(refusal({ filter: 'x' })).toMatchObject({ field: 'filter', message: expect.stringContaining('malformed filter') });
    expect(refusal({ limit: ['1', '2'] })).toEqual({ field: 'limit', message: 'must be given once' });
    expect(refusal({ 'filter[title]': ['a', 'b'] })).toEqual({ field: 'filter[title]', message: 'must be given once' });
  });

  it('refuses operators that do not apply to the field', () => {
    expect(refusal({ 'filter[price][contains]': '1' })).toEqual({
      field: 'filter[price][contains]',
      message: 'contains applies to text fields only',
    });
    expect(refusal({ 'filter[featured][gt]': 'true' })).toMatchObject({ field: 'filter[featured][gt]' });
    expect(refusal({ 'filter[tags][gt]': 'a' })).toMatchObject({ field: 'filter[tags][gt]' });
    expect(refusal({ 'filter[seo]': 'x' })).toEqual({ field: 'filter[seo]', message: 'seo can only be filtered with exists' });
    expect(refusal({ 'filter[title][exists]': 'yes' })).toEqual({ field: 'filter[title][exists]', message: 'must be true or false' });
    expect(refusal({ 'filter[price]': 'cheap' })).toMatchObject({ field: 'filter[price]' });
  });

  it('at most 100 values in an in-list', () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`).join(',');
    expect(parse({ 'filter[title][in]': values(100) }).conditions[0].value).toHaveLength(100);
    expect(refusal({ 'filter[title][in]': values(101) })).toEqual({ field: 'filter[title][in]', message: 'at most 100 values' });
  });

  it('orders only by a single orderable field, in a known direction', () => {
    expect(refusal({ order: 'up' })).toEqual({ field: 'order', message: 'must be asc or desc' });
    expect(refusal({ orderBy: 'tags' })).toEqual({ field: 'orderBy', message: 'cannot order by tags' });
    expect(refusal({ orderBy: 'location' })).toEqual({ field: 'orderBy', message: 'cannot order by location' });
  });

  it('a cursor cannot be combined with an offset', () => {
    expect(refusal({ after: 'anything', offset: '10' })).toEqual({ field: 'after', message: 'cannot be combined with offset' });
  });

  it('fields must exist; a search with no word matches nothing rather than everything', () => {
    expect(parse({ fields: 'title, price,_id' }).fields).toEqual(['title', 'price', '_id']);
    expect(refusal({ fields: 'title,nope' })).toEqual({ field: 'fields', message: 'unknown field nope' });
    expect(parse({ search: 'Hello World' }).searchWords?.length).toBeGreaterThan(0);
    expect(parse({ search: '!!!' }).searchWords).toEqual([]);
    expect(parse({ search: '' }).searchWords).toBeUndefined();
  });
});

describe('filter[_draft][exists]', () => {
  it('under perspective=drafts: whether a pending draft is served, kept apart from the conditions', () => {
    const q = parse({ perspective: 'drafts', 'filter[_draft][exists]': 'true', 'filter[_updatedBy]': 'u1' });
    expect(q.pendingDraft).toBe(true);
    expect(q.conditions).toHaveLength(1);
    expect(parse({ perspective: 'drafts', 'filter[_draft][exists]': 'false' }).pendingDraft).toBe(false);
    expect(parse({ perspective: 'drafts' })).not.toHaveProperty('pendingDraft');
  });

  it('is refused without perspective=drafts, with another operator or another value', () => {
    expect(refusal({ 'filter[_draft][exists]': 'true' })).toEqual({ field: 'filter[_draft][exists]', message: 'needs perspective=drafts' });
    expect(refusal({ perspective: 'published', 'filter[_draft][exists]': 'true' }).field).toBe('filter[_draft][exists]');
    expect(refusal({ perspective: 'drafts', 'filter[_draft]': 'true' }).field).toBe('filter[_draft]');
    expect(refusal({ perspective: 'drafts', 'filter[_draft][exists]': 'yes' })).toEqual({
      field: 'filter[_draft][exists]',
      message: 'must be true or false',
    });
  });
});
