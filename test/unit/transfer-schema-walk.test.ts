import { describe, expect, it } from 'vitest';
import { orderTypes, referencesIn, type SchemaDef } from '../../packages/cli/src/transfer/schema-walk.js';

const schema = (name: string, fields: SchemaDef['fields']): SchemaDef => ({ name, type: 'document', fields });

describe('schema walk (the order of an export, the references of an import)', () => {
  it('puts a type after the types it references, at any depth, and cuts cycles', () => {
    const schemas = [
      schema('post', [
        { name: 'author', type: 'reference', to: 'author' },
        { name: 'related', type: 'array', of: { type: 'reference', to: ['post', 'page'] } },
      ]),
      schema('page', [{ name: 'seo', type: 'object', fields: [{ name: 'canonical', type: 'reference', to: 'post' }] }]),
      schema('author', [{ name: 'company', type: 'reference', to: 'company' }]),
      schema('company', [{ name: 'name', type: 'string' }]),
      schema('tag', []),
    ];
    const order = orderTypes(schemas, ['post', 'page', 'author', 'company', 'tag']);
    expect(order).toHaveLength(5);
    expect(order.indexOf('company')).toBeLessThan(order.indexOf('author'));
    expect(order.indexOf('author')).toBeLessThan(order.indexOf('post'));
    // post ↔ page is a cycle: both are there, once each.
    expect(new Set(order)).toEqual(new Set(['post', 'page', 'author', 'company', 'tag']));
    // Only the types asked for, even when referenced.
    expect(orderTypes(schemas, ['post'])).toEqual(['post']);
  });

  it('finds every reference of a document with the top-level field it sits in', () => {
    const post = schema('post', [
      { name: 'author', type: 'reference', to: 'author' },
      { name: 'related', type: 'array', of: { type: 'reference', to: ['post', 'page'] } },
      { name: 'seo', type: 'object', fields: [{ name: 'canonical', type: 'reference', to: 'page' }] },
      { name: 'title', type: 'string' },
    ]);
    expect(referencesIn(post, { author: 'a1', related: ['p2', 'p3'], seo: { canonical: 'pg1' }, title: 'x' })).toEqual([
      { field: 'author', id: 'a1', to: ['author'] },
      { field: 'related', id: 'p2', to: ['post', 'page'] },
      { field: 'related', id: 'p3', to: ['post', 'page'] },
      { field: 'seo', id: 'pg1', to: ['page'] },
    ]);
    expect(referencesIn(post, { title: 'x', seo: null })).toEqual([]);
  });
});
