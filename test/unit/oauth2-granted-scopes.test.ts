import { describe, expect, it } from 'vitest';
import { OAUTH_SCOPES, type OAuthScope } from '../../packages/server/src/config/oauth-scopes.js';
import { grantedScopes, scopedPermissions } from '../../packages/server/src/domain/oauth2/scopes.js';

// What a token's `scope` names (RFC 6749 §3.3; docs/oauth2.md, "Scopes"): the approved scopes that
// give the user at least one right.
const ALL: OAuthScope[] = ['content:read', 'content:write', 'content:delete', 'media:read', 'media:write'];

describe('grantedScopes', () => {
  it('a writer keeps content:read, content:write and media:write (uploads), not content:delete', () => {
    expect(grantedScopes(ALL, 'writer', [])).toEqual(['content:read', 'content:write', 'media:read', 'media:write']);
    expect(grantedScopes(['content:read', 'content:write', 'content:delete', 'media:write'], 'writer', [])).toEqual([
      'content:read',
      'content:write',
      'media:write',
    ]);
  });

  it('content:publish is kept for users who publish (author, editor, a schema publish right), left out for a writer', () => {
    const asked: OAuthScope[] = ['content:write', 'content:publish'];
    expect(grantedScopes(asked, 'author', [])).toEqual(asked);
    expect(grantedScopes(asked, 'editor', [])).toEqual(asked);
    expect(grantedScopes(asked, 'writer', [])).toEqual(['content:write']);
    expect(grantedScopes(asked, 'writer', ['post:publish'])).toEqual(asked);
    // It grants publishing alone: the write comes from content:write.
    expect([...scopedPermissions(['content:publish'], 'editor', [])]).toEqual(['content:publish']);
    expect([...scopedPermissions(['content:publish'], 'writer', ['post:publish'])]).toEqual(['post:publish']);
  });

  it('an admin and an editor keep every scope', () => {
    expect(grantedScopes(ALL, 'admin', [])).toEqual(ALL);
    expect(grantedScopes(ALL, 'editor', [])).toEqual(ALL);
  });

  it('scopes that grant nothing by themselves are kept; a user with no rights keeps only those', () => {
    expect(grantedScopes(['openid', 'profile', 'offline_access', 'content:delete'], 'viewer', [])).toEqual([
      'openid',
      'profile',
      'offline_access',
    ]);
    expect(grantedScopes(ALL, 'api', [])).toEqual([]);
  });

  it("a schema permission counts for its action's content scope", () => {
    expect(grantedScopes(ALL, 'api', ['post:delete'])).toEqual(['content:delete']);
    expect(grantedScopes(ALL, 'api', ['post:*'])).toEqual(['content:read', 'content:write', 'content:delete']);
  });

  it('leaves the rights as they were, for every role and every set of scopes', () => {
    for (const role of ['admin', 'editor', 'author', 'writer', 'viewer', 'api'])
      for (let mask = 0; mask < 1 << OAUTH_SCOPES.length; mask++) {
        const asked = OAUTH_SCOPES.filter((_, i) => mask & (1 << i));
        const kept = grantedScopes(asked, role, ['post:publish']);
        expect([...scopedPermissions(kept, role, ['post:publish'])].sort()).toEqual(
          [...scopedPermissions(asked, role, ['post:publish'])].sort(),
        );
      }
  });
});
