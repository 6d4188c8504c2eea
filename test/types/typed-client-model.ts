import type { SchemaDef } from '../../packages/server/src/config/types.js';

/**
 * The content model of the typed-client tests (test/types/): references one and many, nested
 * through two types, an image, a select, numbers and an object. `typed-client-schemas.ts` is what
 * `vellum types` writes for it; test/cli/typed-client-fixture.test.ts keeps the two in step.
 */
export const TYPED_CLIENT_SCHEMAS: SchemaDef[] = [
  { name: 'company', title: 'Company', fields: [{ name: 'name', type: 'string', required: true }] },
  {
    name: 'author',
    title: 'Author',
    fields: [
      { name: 'name', type: 'string', required: true },
      { name: 'company', type: 'reference', to: 'company' },
    ],
  },
  {
    name: 'post',
    title: 'Post',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'author', type: 'reference', to: 'author' },
      { name: 'related', type: 'array', of: { type: 'reference', to: 'post' } },
      { name: 'category', type: 'select', options: ['news', 'guide'] },
      { name: 'views', type: 'integer' },
      { name: 'publishedAt', type: 'datetime' },
      { name: 'seo', type: 'object', fields: [{ name: 'title', type: 'string' }] },
      { name: 'cover', type: 'image' },
    ],
  },
];
