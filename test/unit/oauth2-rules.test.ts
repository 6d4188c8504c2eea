import { describe, expect, it } from 'vitest';
import { parseScope, scopedPermissions } from '../../packages/server/src/domain/oauth2/scopes.js';
import { resolveConfig } from '../../packages/server/src/config/index.js';
import { configProblems } from '../helpers/config-problems.js';

const sorted = (s: Set<string>) => [...s].sort();

describe('OAuth scopes (the spec\'s "OAuth 2.0 scopes" table) intersected with the user', () => {
  it('an admin gets exactly what the scopes grant, never users:*, tokens:* or settings:*', () => {
    expect(sorted(scopedPermissions(['content:write'], 'admin', []))).toEqual(['content:read', 'content:write']);
    expect(sorted(scopedPermissions(['media:write'], 'admin', []))).toEqual(['media:edit', 'media:read', 'media:upload']);
    expect(sorted(scopedPermissions(['openid', 'profile', 'offline_access'], 'admin', []))).toEqual([]);
    const all = scopedPermissions(['content:read', 'content:write', 'content:delete', 'media:read', 'media:write'], 'admin', []);
    expect([...all].filter((p) => !p.startsWith('content:') && !p.startsWith('media:'))).toEqual([]);
  });

  it('a viewer with content:write scope can still only read', () => {
    expect(sorted(scopedPermissions(['content:write', 'media:write'], 'viewer', []))).toEqual(['content:read', 'media:read']);
  });

  it('schema permissions of the user count for the content scope of their action', () => {
    const p = scopedPermissions(['content:write'], 'api', ['post:write', 'page:*', 'post:delete', 'users:read']);
    expect(sorted(p)).toEqual(['page:read', 'page:write', 'post:write']);
  });

  it('content:* of the user counts for every content scope', () => {
    expect(sorted(scopedPermissions(['content:read', 'content:delete'], 'api', ['content:*']))).toEqual(['content:delete', 'content:read']);
  });

  it('parseScope: absent means every scope of the client; unknown or not allowed is invalid_scope', () => {
    expect(parseScope(undefined, ['content:read', 'media:read'])).toEqual(['content:read', 'media:read']);
    expect(parseScope('media:read  content:read media:read', ['content:read', 'media:read'])).toEqual(['media:read', 'content:read']);
    expect(() => parseScope('content:write', ['content:read'])).toThrow(expect.objectContaining({ code: 'invalid_scope' }));
    expect(() => parseScope('admin', ['content:read'])).toThrow(expect.objectContaining({ code: 'invalid_scope' }));
  });
});

describe('oauth2 configuration', () => {
  const client = { clientId: 'web', redirectUris: ['https://app.example.com/callback'] };

  it('off by default; the issuer defaults to server.publicUrl or localhost', () => {
    const c = resolveConfig({}, {}).oauth2;
    expect(c).toMatchObject({ enabled: false, issuer: 'http://localhost:3000', clients: [] });
    expect(resolveConfig({ server: { publicUrl: 'https://cms.example.com/' } }, {}).oauth2.issuer).toBe('https://cms.example.com');
  });

  it('a client gets the default grants and every scope', () => {
    const [c] = resolveConfig({ oauth2: { enabled: true, clients: [client] } }, {}).oauth2.clients;
    expect(c).toMatchObject({ clientId: 'web', name: 'web', grants: ['authorization_code', 'refresh_token'], clientSecret: undefined });
    expect(c.scopes).toContain('media:write');
  });

  it('refuses a bad client: unknown scope or grant, duplicate id, the built-in id, a redirect URI with a fragment or plain http', () => {
    const problems = (clients: unknown[]) => configProblems({ oauth2: { enabled: true, clients } });
    expect(problems([{ ...client, scopes: ['admin'] }])[0]).toMatch(/^oauth2\.clients\[0\]\.scopes: "admin" is not one of/);
    expect(problems([{ ...client, grants: ['password'] }])[0]).toMatch(/^oauth2\.clients\[0\]\.grants: "password"/);
    expect(problems([client, client])[0]).toMatch(/^oauth2\.clients\[1\]\.clientId: "web" is listed twice/);
    expect(problems([{ ...client, clientId: 'service-cli' }])[0]).toMatch(/built-in client/);
    expect(problems([{ ...client, redirectUris: ['https://app.example.com/cb#x'] }])[0]).toMatch(/redirectUris/);
    expect(problems([{ ...client, redirectUris: ['http://app.example.com/cb'] }])[0]).toMatch(/redirectUris/);
    expect(problems([{ ...client, redirectUris: ['http://127.0.0.1:8123/cb', 'com.example.app:/cb'] }])).toEqual([]);
    expect(problems([{ ...client, clientSecret: 'short' }])[0]).toMatch(/clientSecret: expected a string of at least 32/);
  });
});
