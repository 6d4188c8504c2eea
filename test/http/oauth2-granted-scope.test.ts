import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { deviceTokens, form } from '../helpers/oauth2.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// The token response, the access token's `scope` claim (RFC 9068 §2.2.3) and the grants list name
// the scope actually granted (RFC 6749 §3.3): the approved scopes that give the user at least one
// right (docs/oauth2.md, "Scopes"). The user's own rights still cap the token.
const SPA = { clientId: 'spa', name: 'Single-page app', redirectUris: ['http://127.0.0.1:4000/callback'] };
const ASKED = 'content:read content:write content:delete media:write';
const WRITER_GETS = 'content:read content:write media:write';

let t: TestApp;
let admin: string;

useAdminApp(
  () => startTestApp({ schemas: TEST_SCHEMAS, oauth2: { enabled: true, clients: [SPA] } }),
  (app, token) => ((t = app), (admin = token)),
);

const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as Record<string, unknown>;

async function refresh(refreshToken: string, clientId: string, scope?: string) {
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/token',
    ...form({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, ...(scope ? { scope } : {}) }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { access_token: string; refresh_token: string; scope: string };
}

/** The authorization-code flow with PKCE, approved by the user behind `bearer`. */
async function codeTokens(bearer: string, scope: string) {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const approved = await t.request({
    method: 'POST',
    url: '/api/auth/authorize',
    token: bearer,
    payload: {
      response_type: 'code',
      client_id: SPA.clientId,
      redirect_uri: SPA.redirectUris[0],
      scope,
      state: 'st',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      action: 'approve',
    },
  });
  expect(approved.statusCode, approved.body).toBe(200);
  const code = new URL(approved.json().data.redirectUrl).searchParams.get('code') as string;
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/token',
    ...form({
      grant_type: 'authorization_code',
      code,
      redirect_uri: SPA.redirectUris[0],
      code_verifier: verifier,
      client_id: SPA.clientId,
    }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { access_token: string; refresh_token: string; scope: string };
}

const whoami = async (bearer: string) =>
  (await t.request({ method: 'GET', url: '/api/auth/me', token: bearer })).json().data as { id: string; username: string };

describe('the scope a token answers is the scope granted', () => {
  it('device flow approved by a writer: scope and claim leave out content:delete; the rights are unchanged', async () => {
    const writer = await t.userToken('writer');
    const tokens = await deviceTokens(t, writer, ASKED);
    expect(tokens.scope).toBe(WRITER_GETS);
    expect(claims(tokens.access_token).scope).toBe(WRITER_GETS);
    const v = await t.request({ method: 'POST', url: '/api/auth/validate', token: tokens.access_token });
    expect(v.json().data.oauth.scopes).toEqual(WRITER_GETS.split(' '));
    expect(v.json().data.permissions.sort()).toEqual(['content:read', 'content:write', 'media:read', 'media:upload']);
    const doc = await t.request({ method: 'POST', url: '/api/documents/company', token: admin, payload: { name: 'Kept' } });
    expectSpecError(
      await t.request({ method: 'DELETE', url: `/api/documents/company/${doc.json().data._id}`, token: tokens.access_token }),
      403,
      'FORBIDDEN',
    );
  });

  it('a refresh answers the granted scope too, and a narrowing to a scope the user does not hold answers none', async () => {
    const writer = await t.userToken('writer');
    const tokens = await deviceTokens(t, writer, ASKED);
    const next = await refresh(tokens.refresh_token, 'service-cli');
    expect(next.scope).toBe(WRITER_GETS);
    expect(claims(next.access_token).scope).toBe(WRITER_GETS);
    const narrowed = await refresh(next.refresh_token, 'service-cli', 'content:delete content:read');
    expect(narrowed.scope).toBe('content:read');
    expect(claims(narrowed.access_token).scope).toBe('content:read');
  });

  it('authorization code approved by a writer: the token response and claim name the granted scope', async () => {
    const writer = await t.userToken('writer');
    const tokens = await codeTokens(writer, ASKED);
    expect(tokens.scope).toBe(WRITER_GETS);
    expect(claims(tokens.access_token).scope).toBe(WRITER_GETS);
    expect((await refresh(tokens.refresh_token, SPA.clientId)).scope).toBe(WRITER_GETS);
  });

  it("a viewer's content:write keeps content:write (it reads); openid is kept; content:delete goes", async () => {
    const viewer = await t.userToken('viewer');
    const tokens = await deviceTokens(t, viewer, 'openid content:write content:delete');
    expect(tokens.scope).toBe('openid content:write');
  });

  it('content:publish is granted to a user who holds publishing and gives the token that right; a writer does not get it', async () => {
    const asked = 'content:read content:write content:publish';
    const author = await t.userToken('author');
    const tokens = await deviceTokens(t, author, asked);
    expect(tokens.scope).toBe(asked);
    const made = await t.request({ method: 'POST', url: '/api/documents/company', token: tokens.access_token, payload: { name: 'Draft' } });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().data._id as string;
    const published = await t.request({
      method: 'PATCH',
      url: `/api/documents/company/${id}`,
      token: tokens.access_token,
      payload: { _status: 'published' },
    });
    expect(published.statusCode, published.body).toBe(200);
    // The same author's token without the scope may write, not publish.
    const writeOnly = await deviceTokens(t, author, 'content:read content:write');
    expectSpecError(
      await t.request({
        method: 'PATCH',
        url: `/api/documents/company/${id}`,
        token: writeOnly.access_token,
        payload: { _status: 'draft' },
      }),
      403,
      'FORBIDDEN',
    );
    // A writer cannot publish: the scope is left out of what they are granted.
    const writer = await t.userToken('writer');
    expect((await deviceTokens(t, writer, asked)).scope).toBe('content:read content:write');
    // Absent `scope`, the CLI's client asks for every scope: an author's login can publish.
    expect((await deviceTokens(t, author, '')).scope.split(' ')).toContain('content:publish');
  });

  it('GET /auth/grants lists the granted scopes', async () => {
    const writer = await t.userToken('writer');
    await deviceTokens(t, writer, ASKED);
    const grants = await t.request({ method: 'GET', url: '/api/auth/grants', token: writer });
    expect(grants.statusCode, grants.body).toBe(200);
    expect(grants.json().data.map((g: { scopes: string[] }) => g.scopes)).toEqual([WRITER_GETS.split(' ')]);
  });

  it('the grant keeps what was approved: a writer promoted to editor gets content:delete at the next refresh', async () => {
    const writer = await t.userToken('writer');
    const tokens = await deviceTokens(t, writer, ASKED);
    expect(tokens.scope).toBe(WRITER_GETS);
    const { id, username } = await whoami(writer);
    const patched = await t.request({
      method: 'PUT',
      url: `/api/users/${id}`,
      token: admin,
      payload: { role: 'editor' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await refresh(tokens.refresh_token, 'service-cli')).scope).toBe(ASKED);
    // A role change ends the user's sessions: sign in again to see the grants.
    const editor = await t.login(username, 'user-password-1');
    const grants = await t.request({ method: 'GET', url: '/api/auth/grants', token: editor });
    expect(grants.json().data[0].scopes).toEqual(ASKED.split(' '));
  });
});
