import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPkce, createState, VellumClient } from '../../packages/client/src/index.js';

describe('client PKCE (RFC 7636)', () => {
  it('makes a 43-character base64url verifier whose S256 challenge is BASE64URL(SHA256(verifier))', async () => {
    const { verifier, challenge, method } = await createPkce();
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(challenge).toBe(createHash('sha256').update(verifier).digest('base64url'));
    expect(method).toBe('S256');
    expect((await createPkce()).verifier).not.toBe(verifier);
    expect(createState()).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('builds the authorization URL under the API base path', () => {
    const client = new VellumClient({ baseUrl: 'https://cms.example.com/api/' });
    const url = new URL(
      client.authorizationCode.authorizationUrl({
        clientId: 'blog',
        redirectUri: 'https://blog.example.com/cb',
        scope: ['content:read', 'media:read'],
        state: 's1',
        codeChallenge: 'c1',
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe('https://cms.example.com/api/auth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'blog',
      redirect_uri: 'https://blog.example.com/cb',
      scope: 'content:read media:read',
      state: 's1',
      code_challenge: 'c1',
      code_challenge_method: 'S256',
    });
  });
});
