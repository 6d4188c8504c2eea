import { describe, expect, it } from 'vitest';
import { orderTypes, referencesIn, type SchemaDef } from '../../packages/cli/src/transfer/schema-walk.js';
import { servedTypes } from '../helpers/served-types.js';

/** A type as the server serves it to the walk: its name and its documents' JSON Schema. */
const schema = (name: string, fields: object[]): SchemaDef => servedTypes([{ name, title: name, fields }])[0]!;

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

  it('follows references into blocks, by the _type of each item, and into the objects and lists of a block', () => {
    const page = schema('page', [
      { name: 'title', type: 'string' },
      {
        name: 'sections',
        type: 'blocks',
        of: [
          {
            name: 'hero',
            fields: [
              { name: 'heading', type: 'string' },
              { name: 'image', type: 'image' },
              // Named like the quote's reference, but text: the item's _type decides which block's fields apply.
              { name: 'author', type: 'string' },
            ],
          },
          {
            name: 'quote',
            fields: [
              { name: 'author', type: 'reference', to: 'person' },
              { name: 'links', type: 'object', fields: [{ name: 'see', type: 'array', of: { type: 'reference', to: ['page', 'post'] } }] },
            ],
          },
        ],
      },
    ]);
    const data = {
      title: 'Home',
      sections: [
        { _type: 'hero', _key: 'a', heading: 'Hi', image: 'm1', author: 'Someone' },
        { _type: 'quote', _key: 'b', author: 'ann', links: { see: ['p1', 'p2'] } },
        { _type: 'quote', _key: 'c', author: null },
        { _type: 'removed', _key: 'd', author: 'x' },
      ],
    };
    expect(referencesIn(page, data)).toEqual([
      { field: 'sections', id: 'ann', to: ['person'] },
      { field: 'sections', id: 'p1', to: ['page', 'post'] },
      { field: 'sections', id: 'p2', to: ['page', 'post'] },
    ]);
    expect(referencesIn(page, { title: 'x', sections: [] })).toEqual([]);

    // The types a block references come first in an export.
    const order = orderTypes([page, schema('person', [{ name: 'name', type: 'string' }]), schema('post', [])], ['page', 'person', 'post']);
    expect(order.indexOf('person')).toBeLessThan(order.indexOf('page'));
    expect(order.indexOf('post')).toBeLessThan(order.indexOf('page'));
  });
});
