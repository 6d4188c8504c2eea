import { describe, expect, it } from 'vitest';
import { previewOrigin } from '../../packages/server/src/config/preview-url-template.js';

// The studio's sources are checked by their own tsconfig (bundler resolution, DOM): loaded by a
// path the test tsconfig does not follow, typed here.
const studioValues = '../../packages/studio/src/pages/documents/document-values.ts';
const { mergePatch } = (await import(/* @vite-ignore */ studioValues)) as {
  mergePatch(before: unknown, after: unknown): Record<string, unknown>;
};

// What the studio's autosave sends for a published document's draft (docs/studio.md, "Drafts"):
// an RFC 7396 merge patch of what changed since the version read.
describe('mergePatch', () => {
  it('sends changed members, removed ones as null, and nothing for what is unchanged', () => {
    expect(mergePatch({ title: 'A', views: 1, tags: ['x'] }, { title: 'B', tags: ['x'] })).toEqual({ title: 'B', views: null });
    expect(mergePatch({ title: 'A' }, { title: 'A' })).toEqual({});
    expect(mergePatch(undefined, { title: 'A' })).toEqual({ title: 'A' });
  });

  it('compares objects member by member, so a member removed inside one is null (RFC 7396 §2 would keep it otherwise)', () => {
    expect(mergePatch({ seo: { title: 'T', description: 'D' } }, { seo: { title: 'T' } })).toEqual({ seo: { description: null } });
    expect(mergePatch({ seo: { title: 'T' } }, { seo: { title: 'T' } })).toEqual({});
    // Arrays are replaced whole: a merge patch cannot address their items.
    expect(mergePatch({ tags: ['a', 'b'] }, { tags: ['b', 'a'] })).toEqual({ tags: ['b', 'a'] });
    // An object that becomes a scalar (or the reverse) is replaced.
    expect(mergePatch({ meta: { a: 1 } }, { meta: 3 })).toEqual({ meta: 3 });
  });
});

describe('previewOrigin', () => {
  it("names a preview template's fixed origin for the studio's frame-src (docs/preview.md), none when a placeholder is in it", () => {
    expect(previewOrigin('https://site.example/blog/{slug.current}?preview={token}')).toBe('https://site.example');
    expect(previewOrigin('http://localhost:4321/{_id}')).toBe('http://localhost:4321');
    expect(previewOrigin('https://Site.Example:443/x')).toBe('https://site.example');
    expect(previewOrigin('https://{slug}.shops.example/')).toBeUndefined();
    expect(previewOrigin('https://site.example')).toBe('https://site.example');
  });
});
