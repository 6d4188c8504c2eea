import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * Permission before body (docs/api.md, "Errors", precedence): a caller who may not use a write
 * route hears 401 or 403, whatever its body, never what is wrong with a body it may not send (a
 * 400, 415 or 422 would tell a viewer which fields `/users/invite` takes, and cost the server the
 * parsing). Every write route is either in GUARDED, naming the policy question asked before the
 * body is read, or in SELF_SERVICE, with the reason no permission applies.
 *
 * The write routes are read from the OpenAPI document, which lists every route the server
 * registers (test/http/openapi.test.ts holds it to that): a new write route fails this suite
 * until it is placed in one of the two tables.
 */

/** Route (as the OpenAPI document names it) → the policy question asked before the body. */
const GUARDED: Record<string, string> = {
  'POST /api/users': 'users:write',
  'PUT /api/users/{id}': 'users:write',
  'DELETE /api/users/{id}': 'users:write',
  'POST /api/users/invite': 'users:invite or users:write (the role granted is checked after the body)',
  'POST /api/tokens': 'tokens:write (the permissions granted are checked after the body)',
  'PUT /api/tokens/{id}': 'tokens:write (then 501: tokens are never edited)',
  'DELETE /api/tokens/{id}': 'tokens:delete',
  'POST /api/webhooks': 'webhooks:write',
  'PUT /api/webhooks/{id}': 'webhooks:write',
  'DELETE /api/webhooks/{id}': 'webhooks:delete',
  'POST /api/webhooks/{id}/rotate-secret': 'webhooks:write',
  'POST /api/webhooks/{id}/deliveries/{deliveryId}/retry': 'webhooks:write',
  'POST /api/webhooks/{id}/test': 'webhooks:test',
  'PUT /api/config/settings': 'settings:write',
  'POST /api/admin/users/{userId}/mfa/reset': 'the admin role',
  'POST /api/media': 'media:upload',
  'PATCH /api/media/{id}': 'media:edit',
  'DELETE /api/media/{id}': 'media:delete',
  'POST /api/documents/{type}': '<type>:write (publishing is checked after the body)',
  'PUT /api/documents/{type}/{id}': '<type>:write (publishing is checked after the body)',
  'PATCH /api/documents/{type}/{id}': '<type>:write (publishing is checked after the body)',
  'DELETE /api/documents/{type}/{id}': '<type>:delete',
  'POST /api/documents/{type}/{id}/revisions/{rev}/restore': '<type>:write',
  'POST /api/collections/{type}': '<type>:write (publishing is checked after the body)',
  'PUT /api/collections/{type}/{id}': '<type>:write (publishing is checked after the body)',
  'PATCH /api/collections/{type}/{id}': '<type>:write (publishing is checked after the body)',
  'DELETE /api/collections/{type}/{id}': '<type>:delete',
  'POST /api/collections/{type}/{id}/revisions/{rev}/restore': '<type>:write',
};

/** Write routes no permission guards, and why. */
const SELF_SERVICE: Record<string, string> = {
  'POST /api/auth/login': 'sign-in: anyone may try, the credentials are the body',
  'POST /api/auth/refresh': 'sign-in: the refresh token is the credential',
  'POST /api/auth/logout': 'ends the caller’s own session, signed in or not',
  'POST /api/auth/validate': 'describes the token it is given, for anyone',
  'PATCH /api/auth/me': 'the caller’s own profile (anonymous: 401 before the body)',
  'POST /api/auth/change-password': 'the caller’s own password (anonymous: 401 before the body)',
  'POST /api/auth/request-reset': 'public: the same answer whether the address exists or not',
  'POST /api/auth/verify-reset-token': 'public: the reset token is the credential',
  'POST /api/auth/reset-password': 'public: the reset token is the credential',
  'POST /api/auth/claim': 'public: the claim token is the credential (first admin)',
  'POST /api/auth/mfa/verify': 'sign-in: the mfaToken is the credential',
  'POST /api/auth/mfa/verify-backup': 'sign-in: the mfaToken is the credential',
  'POST /api/auth/mfa/email/send': 'sign-in: the mfaToken is the credential',
  'POST /api/auth/mfa/setup/totp': 'the caller’s own second factor (a session or a setup token)',
  'POST /api/auth/mfa/setup/totp/verify': 'the caller’s own second factor (a session or a setup token)',
  'POST /api/auth/mfa/setup/email': 'the caller’s own second factor (a session or a setup token)',
  'POST /api/auth/mfa/setup/email/verify': 'the caller’s own second factor (a session or a setup token)',
  'POST /api/auth/mfa/disable': 'the caller’s own second factor (anonymous: 401 before the body)',
  'POST /api/auth/mfa/disable-all': 'the caller’s own second factor (anonymous: 401 before the body)',
  'POST /api/auth/mfa/backup-codes/regenerate': 'the caller’s own backup codes (anonymous: 401 before the body)',
  'DELETE /api/auth/mfa/trusted-devices': 'the caller’s own trusted devices (anonymous: 401)',
  'DELETE /api/auth/mfa/trusted-devices/{id}': 'the caller’s own trusted devices (anonymous: 401)',
  'POST /api/auth/passkey/register/options': 'the caller’s own passkeys',
  'POST /api/auth/passkey/register/verify': 'the caller’s own passkeys',
  'POST /api/auth/passkey/login/options': 'sign-in: anyone may start one',
  'POST /api/auth/passkey/login/verify': 'sign-in: the signed challenge is the credential',
  'PATCH /api/auth/passkey/credentials/{credentialId}': 'the caller’s own passkeys',
  'DELETE /api/auth/passkey/credentials/{credentialId}': 'the caller’s own passkeys',
  'POST /api/auth/oauth/idp/init': 'sign-in with the identity provider, or linking it to the caller’s own account',
  'POST /api/auth/oauth/idp/callback': 'sign-in: the provider’s code and the server-side state are the credential',
  'DELETE /api/auth/oauth/idp/unlink': 'the caller’s own link to the identity provider',
  'POST /api/auth/authorize': 'OAuth 2.0 consent: every user decides for their own account (RFC 6749 §4.1)',
  'POST /api/auth/device/verify': 'OAuth 2.0 device approval: every user decides for their own account (RFC 8628 §3.3)',
  'POST /api/auth/token': 'OAuth 2.0 token endpoint: the client and the grant are the credential (RFC 6749 §3.2)',
  'POST /api/auth/device': 'OAuth 2.0 device authorization: a client starts it (RFC 8628 §3.1)',
  'POST /api/auth/revoke': 'OAuth 2.0 revocation: the token is the credential (RFC 7009 §2)',
  'DELETE /api/auth/grants/{id}': 'the caller’s own OAuth 2.0 grants',
};

const WRITE_METHODS = ['post', 'put', 'patch', 'delete'];

/** Path parameters filled in: ids that exist nowhere (the check comes before any lookup); `post` is a type of the test model. */
const PARAMS: Record<string, string> = {
  type: 'post',
  id: 'no-such-id',
  rev: '1',
  userId: 'no-such-user',
  deliveryId: 'no-such-delivery',
  credentialId: 'no-such-credential',
};

/** `server.bodyLimit` of the suite's app: its smallest value, so an oversized body stays small. */
const BODY_LIMIT = 1024;

/** Bodies no route accepts, each refused for a different reason when the caller may send it. */
const BAD_BODIES: Array<{ name: string; contentType: string; payload: string }> = [
  { name: 'fields the route does not take', contentType: 'application/json', payload: JSON.stringify({ notAField: [1, 2], name: 7 }) },
  { name: 'malformed JSON', contentType: 'application/json', payload: '{"name": ' },
  { name: 'a NUL character', contentType: 'application/json', payload: JSON.stringify({ name: 'a\u0000b', username: 'a\u0000b' }) },
  { name: 'a content type the API does not read', contentType: 'text/plain', payload: 'name=x' },
  { name: 'a body over server.bodyLimit', contentType: 'application/json', payload: JSON.stringify({ name: 'x'.repeat(BODY_LIMIT) }) },
];

let t: TestApp;
let admin: string;
let writeRoutes: string[];
/** Callers without the permissions: a viewer, and an API token holding none. */
let viewer: string;
let bare: string;
useAdminApp(
  () => startTestApp({ schemas: TEST_SCHEMAS, server: { bodyLimit: BODY_LIMIT } }),
  (app, token) => {
    t = app;
    admin = token;
  },
);

beforeAll(async () => {
  const res = await t.request({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  const paths = res.json().paths as Record<string, Record<string, unknown>>;
  writeRoutes = Object.entries(paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => WRITE_METHODS.includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
  viewer = await t.userToken('viewer');
  const created = await t.request({ method: 'POST', url: '/api/tokens', token: admin, payload: { name: 'no rights', permissions: [] } });
  expect(created.statusCode, created.body).toBe(201);
  bare = created.json().data.token as string;
});

const urlOf = (route: string) => route.split(' ')[1].replace(/\{(\w+)\}/g, (_, name: string) => PARAMS[name] ?? `no-such-${name}`);

function send(route: string, token: string | undefined, body: (typeof BAD_BODIES)[number]) {
  const method = route.split(' ')[0] as 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  return t.request({ method, url: urlOf(route), token, headers: { 'content-type': body.contentType }, payload: body.payload });
}

describe('permission before body', () => {
  it('places every write route in GUARDED or SELF_SERVICE, and lists no route that does not exist', () => {
    expect(writeRoutes.length).toBeGreaterThan(50);
    const placed = new Set([...Object.keys(GUARDED), ...Object.keys(SELF_SERVICE)]);
    expect(
      writeRoutes.filter((r) => !placed.has(r)),
      'write routes in neither table',
    ).toEqual([]);
    expect(
      Object.keys(GUARDED).filter((r) => r in SELF_SERVICE),
      'routes in both tables',
    ).toEqual([]);
    expect(
      [...placed].filter((r) => !writeRoutes.includes(r)),
      'listed routes the server does not have',
    ).toEqual([]);
  });

  describe.each(Object.keys(GUARDED))('%s', (route) => {
    it('answers 401 to an anonymous caller and 403 to a viewer and to a token without permissions, whatever the body', async () => {
      for (const body of BAD_BODIES) {
        const at = `${route} with ${body.name}`;
        expect(expectSpecError(await send(route, undefined, body), 401, 'UNAUTHORIZED').message, at).toBeTruthy();
        expect(expectSpecError(await send(route, viewer, body), 403, 'FORBIDDEN').message, at).toBeTruthy();
        expect(expectSpecError(await send(route, bare, body), 403, 'FORBIDDEN').message, at).toBeTruthy();
      }
    });

    it('lets a caller who holds the permission through to the body’s own checks', async () => {
      // Admin holds every permission: the same bad body is answered by what is wrong with it (or
      // with the ids, which exist nowhere), never by a refusal meant for other callers.
      for (const body of BAD_BODIES) {
        const res = await send(route, admin, body);
        expect([401, 403], `${route} with ${body.name}: ${res.statusCode} ${res.body}`).not.toContain(res.statusCode);
        // 501: `PUT /tokens/:id` is not offered to anyone (tokens are never edited).
        expect(res.statusCode === 501 || res.statusCode < 500, `${route} with ${body.name}: ${res.statusCode} ${res.body}`).toBe(true);
      }
    });
  });
});
