import { describe, expect, it } from 'vitest';
import type { SchemaDef } from '../../packages/server/src/config/types.js';
import { fieldsWithExpanded, parseExpand } from '../../packages/server/src/domain/documents/expand.js';
import { SchemaRegistry } from '../../packages/server/src/domain/schemas/schema-registry.js';
import { AppError } from '../../packages/server/src/errors.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// The plan of an `expand` parameter (docs/api.md, "List queries": `expand`): which paths are
// followed, to which types, and what is refused. The expansion itself reads the database and is
// tested through HTTP (test/http/list-expand.test.ts).
const registry = new SchemaRegistry(TEST_SCHEMAS as SchemaDef[]);

/** The message of the 400 an expand parameter gives. */
function refusal(type: string, raw: string) {
  try {
    parseExpand(registry, type, raw);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    expect(err).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: [{ field: 'expand' }] });
    return err.details?.[0]?.message;
  }
  throw new Error(`accepted: expand=${raw}`);
}

describe('parseExpand', () => {
  it('nothing to expand', () => {
    expect(parseExpand(registry, 'post', undefined)).toEqual([]);
    expect(parseExpand(registry, 'post', '')).toEqual([]);
  });

  it('a reference, a list of references and an image, each a node with its targets', () => {
    expect(parseExpand(registry, 'post', 'author, related,cover')).toEqual([
      { path: ['author'], kind: 'documents', targets: ['author'], children: [] },
      { path: ['related'], kind: 'documents', targets: ['post'], children: [] },
      { path: ['cover'], kind: 'media', targets: [], children: [] },
    ]);
  });

  it('dots cross references into a tree; a path named twice is one node', () => {
    expect(parseExpand(registry, 'post', 'author,author.company,related.author')).toEqual([
      {
        path: ['author'],
        kind: 'documents',
        targets: ['author'],
        children: [{ path: ['company'], kind: 'documents', targets: ['company'], children: [] }],
      },
      {
        path: ['related'],
        kind: 'documents',
        targets: ['post'],
        children: [{ path: ['author'], kind: 'documents', targets: ['author'], children: [] }],
      },
    ]);
  });

  it('refuses what is not a reference, unknown fields and paths below media', () => {
    expect(refusal('post', 'title')).toBe('title: title is not a reference');
    expect(refusal('post', 'seo')).toBe('seo: seo is not a reference');
    expect(refusal('post', 'nope')).toBe('nope: unknown field nope');
    expect(refusal('post', 'author.nope')).toBe('author.nope: unknown field nope');
    expect(refusal('post', 'cover.url')).toBe('cover.url: cover holds media; nothing expands below it');
  });

  it('at most 20 paths and 5 levels', () => {
    expect(refusal('post', Array.from({ length: 21 }, () => 'author').join(','))).toBe('at most 20 paths');
    expect(parseExpand(registry, 'post', 'related.related.related.related.related')).toHaveLength(1);
    expect(refusal('post', 'related.related.related.related.related.related')).toBe(
      'related.related.related.related.related.related: at most 5 levels',
    );
  });
});

describe('fieldsWithExpanded', () => {
  it('adds the top-level field each expansion starts from to a field selection, once', () => {
    const roots = parseExpand(registry, 'post', 'author.company,cover');
    expect(fieldsWithExpanded(['title', 'author'], roots)).toEqual(['title', 'author', 'cover']);
    expect(fieldsWithExpanded(undefined, roots)).toBeUndefined();
  });
});
