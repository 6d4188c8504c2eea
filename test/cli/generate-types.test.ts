import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateTypes } from '../../packages/cli/src/types/generate-types.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { servedTypes } from '../helpers/served-types.js';
import { typeCheckFiles } from '../helpers/type-check.js';

/** Type-checks `files` (name → source) together, strict, from a temp folder; returns the diagnostics as text. */
function typeCheck(files: Record<string, string>): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'vellum-types-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return typeCheckFiles(Object.keys(files).map((n) => join(dir, n)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('generateTypes', () => {
  const source = generateTypes(servedTypes(TEST_SCHEMAS));

  it('maps each field type as docs/api.md "Schemas" describes what it stores; required fields are not optional', () => {
    expect(source).toContain('export interface Post extends VellumSystemFields {\n  _type: "post";\n');
    for (const line of [
      '  title: string;',
      '  slug?: { current: string };',
      '  body?: string;',
      '  price?: number;',
      '  views?: number;',
      '  featured?: boolean;',
      '  category?: "news" | "guide" | "opinion";',
      '  tags?: string[];',
      '  author?: VellumRef<"author">;',
      '  related?: Array<VellumRef<"post">>;',
      '  location?: { lat: number; lng: number };',
      '  publishAt?: string;',
      '  cover?: VellumMediaRef;',
      '  meta?: unknown;',
      '  seo?: {\n    title?: string;\n    description?: string;\n  };',
    ])
      expect(source).toContain(line);
    expect(source).toContain(
      'export interface Company extends VellumSystemFields {\n  _type: "company";\n  name: string;\n  country?: "de" | "fr" | "us";\n}',
    );
    expect(source).toContain('/** Id of a author: `expand` replaces it with the document */\n  author?: VellumRef<"author">;');
    // A reference is an id (a plain string is one), marked with what it points at.
    expect(source).toContain('export type VellumRef<K extends string> = string & { readonly __vellumRef?: K };');
    expect(source).toContain('  _createdBy: string | null;\n  _updatedBy: string | null;\n');
  });

  it('ends with VellumSchemas naming every schema', () => {
    expect(source).toMatch(
      /export interface VellumSchemas \{\n {2}company: Company;\n {2}author: Author;\n {2}post: Post;\n {2}secret: Secret;\n {2}site: Site;\n\}\n$/,
    );
  });

  it('gives clashing or odd names their own interface name and quotes odd property names', () => {
    const out = generateTypes(
      servedTypes([
        { name: 'vellumSystemFields', fields: [{ name: 'a-b', type: 'string' }] },
        { name: 'vellumDocument', fields: [] },
        {
          name: 'blog_post',
          fields: [{ name: 'x', type: 'object', fields: [{ name: 'y', type: 'array', of: { type: 'select', options: ['a'] } }] }],
        },
      ]),
    );
    // Never a name of the generated file or of the client: a client's VellumDocument and the model can be imported together.
    expect(out).toContain('export interface VellumSystemFieldsDocument extends VellumSystemFields {');
    expect(out).toContain('export interface VellumDocumentDocument extends VellumSystemFields {');
    expect(out).toContain('  "a-b"?: string;');
    expect(out).toContain('export interface BlogPost extends VellumSystemFields {');
    expect(out).toContain('    y?: Array<"a">;');
    expect(typeCheck({ 'odd.ts': out })).toEqual([]);
  });

  it('compiles with the TypeScript compiler, strict, and types real documents', () => {
    const usage = `
import type { Post, VellumSchemas } from './vellum-types';
const post: VellumSchemas['post'] = {
  _id: 'p1', _type: 'post', _status: 'published', _rev: 1, _createdAt: '', _updatedAt: '', _createdBy: null, _updatedBy: 'u1',
  title: 'Hello', slug: { current: 'hello' }, category: 'news', tags: ['a'], location: { lat: 1, lng: 2 },
  seo: { title: 'x' }, meta: { anything: [1] },
};
// @ts-expect-error: not one of the select's options
const wrongCategory: Post['category'] = 'sports';
// @ts-expect-error: title is required
const noTitle: Post = { _id: 'p2', _type: 'post', _status: 'draft', _rev: 1, _createdAt: '', _updatedAt: '', _createdBy: null, _updatedBy: null };
export { post, wrongCategory, noTitle };
`;
    expect(typeCheck({ 'vellum-types.ts': source, 'usage.ts': usage })).toEqual([]);
  });

  it('gives a blocks field a union discriminated by _type, each block with its _key and fields', () => {
    const out = generateTypes(
      servedTypes([
        {
          name: 'page',
          fields: [
            {
              name: 'sections',
              type: 'blocks',
              of: [
                { name: 'hero', fields: [{ name: 'heading', type: 'string', required: true }] },
                {
                  name: 'quote',
                  fields: [
                    { name: 'text', type: 'text', required: true },
                    { name: 'author', type: 'reference', to: 'page' },
                  ],
                },
              ],
            },
          ],
        },
      ]),
    );
    expect(out).toContain(
      '  sections?: Array<\n    | {\n        _type: "hero";\n        _key: string;\n        heading: string;\n      }\n    | {\n        _type: "quote";',
    );
    const usage = `
import type { Page } from './blocks-types';
export function headings(page: Page): string[] {
  return (page.sections ?? []).map((s) => (s._type === 'hero' ? s.heading : s.text));
}
// @ts-expect-error: a hero has no text
export const wrong: NonNullable<Page['sections']>[number] = { _type: 'hero', _key: 'k', text: 'x' };
`;
    expect(typeCheck({ 'blocks-types.ts': out, 'blocks-usage.ts': usage })).toEqual([]);
  });
});
