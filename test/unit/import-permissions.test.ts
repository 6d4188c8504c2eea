import { describe, expect, it } from 'vitest';
import { missingPermissions } from '../../packages/cli/src/transfer/import-permissions.js';
import type { HeaderLine } from '../../packages/cli/src/transfer/transfer-format.js';

/** What `vellum import` checks before it writes anything (docs/cli.md, "Export and import"). */
const header = (contents?: HeaderLine['contents']): HeaderLine => ({
  kind: 'vellum-export',
  version: 2,
  exportedAt: '2026-11-28T00:00:00.000Z',
  source: 'http://source.example/api',
  types: ['author', 'post', 'page'],
  media: 'include',
  ...(contents ? { contents } : {}),
});
const CONTENTS = { media: 2, documents: { author: 1, post: 3, page: 0 } };
const WRITER = ['content:read', 'content:write', 'media:read', 'media:upload'];

describe('missingPermissions', () => {
  it('an admin, and an author or editor, lack nothing', () => {
    expect(missingPermissions(header(CONTENTS), { role: 'admin', permissions: [] })).toEqual([]);
    expect(missingPermissions(header(CONTENTS), { role: 'author', permissions: [...WRITER, 'content:publish'] })).toEqual([]);
    expect(missingPermissions(header(CONTENTS), { role: 'oauth', permissions: ['content:*', 'media:read', 'media:upload'] })).toEqual([]);
  });

  it('a right missing on every type with documents is named as the general one', () => {
    expect(missingPermissions(header(CONTENTS), { role: 'writer', permissions: WRITER })).toEqual(['content:publish']);
  });

  it('a right held on some types only names the others; types without documents need nothing', () => {
    const held = [...WRITER, 'author:publish'];
    expect(missingPermissions(header(CONTENTS), { role: 'writer', permissions: held })).toEqual(['post:publish']);
    // `page` has no documents in the file: its publish right is not asked for.
    expect(missingPermissions(header(CONTENTS), { role: 'writer', permissions: [...WRITER, 'author:*', 'post:publish'] })).toEqual([]);
  });

  it('media rights only when the file holds media', () => {
    const noMedia = { role: 'oauth', permissions: ['content:read', 'content:write', 'content:publish'] };
    expect(missingPermissions(header(CONTENTS), noMedia)).toEqual(['media:read', 'media:upload']);
    expect(missingPermissions(header({ ...CONTENTS, media: 0 }), noMedia)).toEqual([]);
  });

  it('a header without contents (an older CLI) needs every right on every type named, and the media ones', () => {
    expect(missingPermissions(header(), { role: 'writer', permissions: [...WRITER, 'author:publish', 'post:publish'] })).toEqual([
      'page:publish',
    ]);
    expect(missingPermissions(header(), { role: 'viewer', permissions: ['content:read', 'media:read'] })).toEqual([
      'content:write',
      'content:publish',
      'media:upload',
    ]);
  });
});
