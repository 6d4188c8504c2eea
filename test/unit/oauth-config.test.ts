import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../packages/server/src/config/index.js';
import { configProblems } from '../helpers/config-problems.js';

const oauth = (o: Record<string, unknown>) => ({ security: { oauth: o } });
const GOOGLE = {
  issuer: 'https://accounts.google.com',
  clientId: 'id.apps.googleusercontent.com',
  clientSecret: 'client-secret-value',
  redirectUri: 'https://cms.example.com/studio/auth/idp/callback',
};

describe('security.oauth', () => {
  it('absent: no identity provider', () => {
    expect(resolveConfig({}, {}).security.oauth).toBeUndefined();
  });

  it('an https issuer with defaults: no auto-creation, role viewer, named after the issuer host', () => {
    expect(resolveConfig(oauth(GOOGLE), {}).security.oauth).toEqual({
      ...GOOGLE,
      name: 'accounts.google.com',
      autoCreateUsers: false,
      defaultRole: 'viewer',
    });
    const set = resolveConfig(oauth({ ...GOOGLE, autoCreateUsers: true, defaultRole: 'editor', name: 'Google' }), {}).security.oauth;
    expect(set).toMatchObject({ autoCreateUsers: true, defaultRole: 'editor', name: 'Google' });
  });

  it('defaultRole must be a built-in role: a typo is reported at start-up, not at the first sign-in', () => {
    for (const defaultRole of ['admin', 'editor', 'author', 'writer', 'viewer', 'api'])
      expect(configProblems(oauth({ ...GOOGLE, defaultRole })), defaultRole).toEqual([]);
    for (const defaultRole of ['editr', 'Admin', 'superuser'])
      expect(configProblems(oauth({ ...GOOGLE, defaultRole }))[0], defaultRole).toMatch(
        /^security\.oauth\.defaultRole: ".*" is not a role \(admin, editor/,
      );
  });

  it('http:// issuers only on loopback hosts', () => {
    for (const issuer of ['http://127.0.0.1:8080', 'http://127.5.6.7', 'http://[::1]:9000', 'http://localhost:4000/realms/x'])
      expect(configProblems(oauth({ ...GOOGLE, issuer })), issuer).toEqual([]);
    for (const issuer of ['http://accounts.google.com', 'http://10.0.0.1', 'http://localhost.example.com'])
      expect(configProblems(oauth({ ...GOOGLE, issuer }))[0], issuer).toMatch(/^security\.oauth\.issuer: .* must be https:\/\//);
  });

  it('the issuer is a URL without query or fragment', () => {
    for (const issuer of ['accounts.google.com', 'ftp://example.com', 'https://example.com/?x=1'])
      expect(configProblems(oauth({ ...GOOGLE, issuer }))[0], issuer).toMatch(/^security\.oauth\.issuer: .* is not an issuer URL/);
  });

  it('issuer, clientId and redirectUri are required; redirectUri is an http(s) URL; the secret may be left out', () => {
    expect(configProblems(oauth({}))).toEqual([
      'security.oauth.issuer: required',
      'security.oauth.clientId: required',
      'security.oauth.redirectUri: required',
    ]);
    expect(configProblems(oauth({ ...GOOGLE, redirectUri: '/studio/cb' }))).toEqual([
      'security.oauth.redirectUri: "/studio/cb" is not an http(s) URL',
    ]);
    const { clientSecret: _omitted, ...publicClient } = GOOGLE;
    expect(configProblems(oauth(publicClient))).toEqual([]);
  });

  it('unknown keys are a problem', () => {
    expect(configProblems(oauth({ ...GOOGLE, scopes: 'openid' }))[0]).toMatch(/^security\.oauth/);
  });
});
