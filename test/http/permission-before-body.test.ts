import { beforeAll, describe, expect, it } from 'vitest';
import { issueMfaToken } from '../../packages/server/src/domain/mfa/mfa-tokens.js';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { useMailCatcher } from '../helpers/mail-catcher.js';
import { useOidcProvider } from '../helpers/oidc-provider.js';
import { PASSKEY_ORIGIN } from '../helpers/passkey-client.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * Permission before body (docs/api.md, "Errors", precedence): a caller who may not use a write
 * route hears 401 or 403, whatever its body, never what is wrong with a body it may not send (a
 * 400, 415 or 422 would tell a viewer which fields `/users/invite` takes, and cost the server the
 * parsing). Every write route is in one of three tables: GUARDED, naming the policy question asked
 * before the body is read; SIGNED_IN, the caller's own things, which need a user's session (an
 * anonymous caller is 401, an API token 403, before the body); or SELF_SERVICE, with the reason no
 * sign-in applies. A route of a feature that can be switched off is also in FEATURES: while the
 * feature is off it is 501 for every caller, whatever the body (docs/api.md, "Errors").
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
  'POST /api/users/{id}/password-reset': 'users:write (an admin account only by an admin, checked once the user is found)',
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
  'DELETE /api/documents/{type}/{id}/draft': '<type>:write',
  'POST /api/documents/{type}/{id}/publish': '<type>:publish (each referenced type too, checked after the body)',
  'POST /api/documents/{type}/{id}/unpublish': '<type>:publish',
  'POST /api/documents/{type}/{id}/schedule': '<type>:publish',
  'POST /api/documents/{type}/{id}/preview': '<type>:read (no preview token issues another)',
  'POST /api/documents/{type}/{id}/revisions/{rev}/restore': '<type>:write',
  'POST /api/collections/{type}': '<type>:write (publishing is checked after the body)',
  'PUT /api/collections/{type}/{id}': '<type>:write (publishing is checked after the body)',
  'PATCH /api/collections/{type}/{id}': '<type>:write (publishing is checked after the body)',
  'DELETE /api/collections/{type}/{id}': '<type>:delete',
  'DELETE /api/collections/{type}/{id}/draft': '<type>:write',
  'POST /api/collections/{type}/{id}/publish': '<type>:publish (each referenced type too, checked after the body)',
  'POST /api/collections/{type}/{id}/unpublish': '<type>:publish',
  'POST /api/collections/{type}/{id}/schedule': '<type>:publish',
  'DELETE /api/schedules/{id}': '<type>:publish on some type (on the schedule’s own type once it is read)',
  'POST /api/collections/{type}/{id}/preview': '<type>:read (no preview token issues another)',
  'POST /api/collections/{type}/{id}/revisions/{rev}/restore': '<type>:write',
  'PUT /api/presence/{docType}/{id}': '<type>:read, as a person (a session, not an API or preview token)',
  'DELETE /api/presence/{docType}/{id}': '<type>:read, as a person (a session, not an API or preview token)',
};

/**
 * GUARDED routes whose permission a viewer holds (a read permission): a viewer goes through to the
 * body's checks there, and the token holding nothing is the caller refused.
 */
const VIEWER_HOLDS = new Set([
  'POST /api/documents/{type}/{id}/preview',
  'POST /api/collections/{type}/{id}/preview',
  'PUT /api/presence/{docType}/{id}',
  'DELETE /api/presence/{docType}/{id}',
]);

/**
 * Route → what it acts on: the caller's own things, which only a user's session (bearer or cookie)
 * reaches. No permission is asked, but an anonymous caller is 401 and an API token 403 before the
 * body is read.
 */
const SIGNED_IN: Record<string, string> = {
  'PATCH /api/auth/me': 'the caller’s own profile',
  'PUT /api/auth/me/preferences': 'the caller’s own preferences',
  'POST /api/auth/change-password': 'the caller’s own password',
  // The setup routes take a session or the header `x-mfa-setup-token` of a login held at
  // `requiresMFASetup`: a header, so it is checked before the body too (a dead one is 401).
  'POST /api/auth/mfa/setup/totp': 'the caller’s own second factor (a session or a setup token)',
  'POST /api/auth/mfa/setup/totp/verify': 'the caller’s own second factor (a session or a setup token)',
  'POST /api/auth/mfa/setup/email': 'the caller’s own second factor (a session or a setup token)',
  'POST /api/auth/mfa/setup/email/verify': 'the caller’s own second factor (a session or a setup token)',
  'POST /api/auth/mfa/disable': 'the caller’s own second factor',
  'POST /api/auth/mfa/disable-all': 'the caller’s own second factor',
  'POST /api/auth/mfa/backup-codes/regenerate': 'the caller’s own backup codes',
  'DELETE /api/auth/mfa/trusted-devices': 'the caller’s own trusted devices',
  'DELETE /api/auth/mfa/trusted-devices/{id}': 'the caller’s own trusted devices',
  'POST /api/auth/passkey/register/options': 'the caller’s own passkeys',
  'POST /api/auth/passkey/register/verify': 'the caller’s own passkeys',
  'PATCH /api/auth/passkey/credentials/{credentialId}': 'the caller’s own passkeys',
  'DELETE /api/auth/passkey/credentials/{credentialId}': 'the caller’s own passkeys',
  'DELETE /api/auth/oauth/idp/unlink': 'the caller’s own link to the identity provider',
  'POST /api/auth/authorize': 'OAuth 2.0 consent: a user decides for their own account (RFC 6749 §4.1)',
  'POST /api/auth/device/verify': 'OAuth 2.0 device approval: a user decides for their own account (RFC 8628 §3.3)',
  'DELETE /api/auth/grants/{id}': 'the caller’s own OAuth 2.0 grants',
};

/** Write routes that need no sign-in, and why. */
const SELF_SERVICE: Record<string, string> = {
  'POST /api/auth/login': 'sign-in: anyone may try, the credentials are the body',
  'POST /api/auth/refresh': 'sign-in: the refresh token is the credential',
  'POST /api/auth/logout': 'ends the caller’s own session, signed in or not',
  'POST /api/auth/validate': 'describes the token it is given, for anyone',
  'POST /api/auth/request-reset': 'public: the same answer whether the address exists or not',
  'POST /api/auth/verify-reset-token': 'public: the reset token is the credential',
  'POST /api/auth/reset-password': 'public: the reset token is the credential',
  'POST /api/auth/claim': 'public: the claim token is the credential (first admin)',
  'POST /api/auth/mfa/verify': 'sign-in: the mfaToken in the body is the credential',
  'POST /api/auth/mfa/verify-backup': 'sign-in: the mfaToken in the body is the credential',
  'POST /api/auth/mfa/email/send': 'sign-in: the mfaToken in the body is the credential',
  'POST /api/auth/passkey/login/options': 'sign-in: anyone may start one',
  'POST /api/auth/passkey/login/verify': 'sign-in: the signed challenge in the body is the credential',
  'POST /api/auth/oauth/idp/init':
    'sign-in with the identity provider for anyone; linking it to the caller’s own account (`mode: link`, in the body) needs a session, checked after the body',
  'POST /api/auth/oauth/idp/callback': 'sign-in: the provider’s code and the server-side state are the credential',
  'POST /api/auth/token': 'OAuth 2.0 token endpoint: the client and the grant are the credential (RFC 6749 §3.2)',
  'POST /api/auth/device': 'OAuth 2.0 device authorization: a client starts it (RFC 8628 §3.1)',
  'POST /api/auth/revoke': 'OAuth 2.0 revocation: the token is the credential (RFC 7009 §2)',
};

/** Route → the switch of its feature: while it is off the route is 501 `NOT_IMPLEMENTED` for everyone, whatever the body. */
const PASSKEYS = 'security.passkey';
const IDP = 'security.oauth';
const OAUTH2 = 'oauth2.enabled';
const MAIL = 'mail.smtpUrl';
const FEATURES: Record<string, string> = {
  'POST /api/auth/passkey/register/options': PASSKEYS,
  'POST /api/auth/passkey/register/verify': PASSKEYS,
  'POST /api/auth/passkey/login/options': PASSKEYS,
  'POST /api/auth/passkey/login/verify': PASSKEYS,
  'PATCH /api/auth/passkey/credentials/{credentialId}': PASSKEYS,
  'DELETE /api/auth/passkey/credentials/{credentialId}': PASSKEYS,
  'POST /api/auth/oauth/idp/init': IDP,
  'POST /api/auth/oauth/idp/callback': IDP,
  'DELETE /api/auth/oauth/idp/unlink': IDP,
  'POST /api/auth/authorize': OAUTH2,
  'POST /api/auth/device/verify': OAUTH2,
  'POST /api/auth/token': OAUTH2,
  'POST /api/auth/device': OAUTH2,
  'POST /api/auth/revoke': OAUTH2,
  'DELETE /api/auth/grants/{id}': OAUTH2,
  'POST /api/auth/mfa/setup/email': MAIL,
  'POST /api/auth/mfa/setup/email/verify': MAIL,
  'POST /api/auth/mfa/email/send': MAIL,
};

const WRITE_METHODS = ['post', 'put', 'patch', 'delete'];

/** Path parameters filled in: ids that exist nowhere (the check comes before any lookup); `post` is a type of the test model. */
const PARAMS: Record<string, string> = {
  type: 'post',
  docType: 'post',
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

const mail = useMailCatcher();
const idp = useOidcProvider();

/** The suite's main app: every switchable feature (passkeys, identity provider, OAuth 2.0, mail) is off. */
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

/** A second app with every feature on, for SIGNED_IN (a switched-off feature answers 501 first). */
let on: TestApp;
/** On `on`: a viewer's session, an API token holding permissions, and a live setup token of another user. */
let onViewer: string;
let onToken: string;
let setupToken: string;
useAdminApp(
  () =>
    startTestApp({
      schemas: TEST_SCHEMAS,
      server: { bodyLimit: BODY_LIMIT },
      mail: { smtpUrl: mail.url, from: 'Vellum <cms@example.com>' },
      security: {
        ...idp.config().security,
        passkey: { enabled: true, rpId: 'localhost', rpName: 'Vellum', origin: PASSKEY_ORIGIN },
      },
      oauth2: { enabled: true },
    }),
  (app, token) => {
    on = app;
    onAdmin = token;
  },
);
let onAdmin: string;
beforeAll(async () => {
  onViewer = await on.userToken('viewer');
  const created = await on.request({
    method: 'POST',
    url: '/api/tokens',
    token: onAdmin,
    payload: { name: 'some rights', permissions: ['users:write', 'tokens:write', 'settings:write'] },
  });
  expect(created.statusCode, created.body).toBe(201);
  onToken = created.json().data.token as string;
  // A login held at `requiresMFASetup` gets this token (domain/mfa/mfa-tokens.ts); made directly for another user.
  const held = await on.request({ method: 'GET', url: '/api/auth/me', token: await on.userToken('viewer') });
  expect(held.statusCode, held.body).toBe(200);
  setupToken = (await issueMfaToken(on.app.services, held.json().data.id as string, 'setup', false)).token;
});

beforeAll(async () => {
  const res = await t.request({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  const paths = res.json().paths as Record<string, Record<string, unknown>>;
  // The document paths are listed per type (`/api/documents/post`): each route once, as `{type}`.
  const types = TEST_SCHEMAS.map((s) => s.name).join('|');
  const generic = (path: string) => path.replace(new RegExp(`^/api/(documents|collections)/(?:${types})(?=/|$)`), '/api/$1/{type}');
  writeRoutes = [
    ...new Set(
      Object.entries(paths).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((m) => WRITE_METHODS.includes(m))
          .map((m) => `${m.toUpperCase()} ${generic(path)}`),
      ),
    ),
  ];
  viewer = await t.userToken('viewer');
  const created = await t.request({ method: 'POST', url: '/api/tokens', token: admin, payload: { name: 'no rights', permissions: [] } });
  expect(created.statusCode, created.body).toBe(201);
  bare = created.json().data.token as string;
});

const urlOf = (route: string) => route.split(' ')[1].replace(/\{(\w+)\}/g, (_, name: string) => PARAMS[name] ?? `no-such-${name}`);

function send(route: string, token: string | undefined, body: (typeof BAD_BODIES)[number], app = t, headers: Record<string, string> = {}) {
  const method = route.split(' ')[0] as 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  return app.request({
    method,
    url: urlOf(route),
    token,
    headers: { ...headers, 'content-type': body.contentType },
    payload: body.payload,
  });
}

describe('permission before body', () => {
  it('places every write route in GUARDED or SELF_SERVICE, and lists no route that does not exist', () => {
    expect(writeRoutes.length).toBeGreaterThan(50);
    const placed = new Set([...Object.keys(GUARDED), ...Object.keys(SIGNED_IN), ...Object.keys(SELF_SERVICE)]);
    expect(
      writeRoutes.filter((r) => !placed.has(r)),
      'write routes in neither table',
    ).toEqual([]);
    expect(
      [
        ...Object.keys(GUARDED).filter((r) => r in SELF_SERVICE || r in SIGNED_IN),
        ...Object.keys(SIGNED_IN).filter((r) => r in SELF_SERVICE),
      ],
      'routes in both tables',
    ).toEqual([]);
    expect(
      [...placed, ...Object.keys(FEATURES)].filter((r) => !writeRoutes.includes(r)),
      'listed routes the server does not have',
    ).toEqual([]);
  });

  describe.each(Object.keys(GUARDED))('%s', (route) => {
    const viewerHolds = VIEWER_HOLDS.has(route);
    it(`answers 401 to an anonymous caller and 403 to ${viewerHolds ? '' : 'a viewer and to '}a token without permissions, whatever the body`, async () => {
      for (const body of BAD_BODIES) {
        const at = `${route} with ${body.name}`;
        expect(expectSpecError(await send(route, undefined, body), 401, 'UNAUTHORIZED').message, at).toBeTruthy();
        if (viewerHolds) {
          const res = await send(route, viewer, body);
          expect([401, 403], `${at}: ${res.statusCode} ${res.body}`).not.toContain(res.statusCode);
        } else {
          expect(expectSpecError(await send(route, viewer, body), 403, 'FORBIDDEN').message, at).toBeTruthy();
        }
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

  describe.each(Object.keys(SIGNED_IN))('%s', (route) => {
    it('answers 401 to an anonymous caller and 403 to an API token, whatever the body', async () => {
      for (const body of BAD_BODIES) {
        const at = `${route} with ${body.name}`;
        expect(expectSpecError(await send(route, undefined, body, on), 401, 'UNAUTHORIZED').message, at).toBeTruthy();
        expect(expectSpecError(await send(route, onToken, body, on), 403, 'FORBIDDEN').message, at).toBeTruthy();
      }
    });

    it('lets a signed-in user through to the body’s own checks', async () => {
      for (const body of BAD_BODIES) {
        const res = await send(route, onViewer, body, on);
        expect([401, 403], `${route} with ${body.name}: ${res.statusCode} ${res.body}`).not.toContain(res.statusCode);
        expect(res.statusCode, `${route} with ${body.name}: ${res.body}`).toBeLessThan(500);
      }
    });
  });

  describe.each(Object.keys(SIGNED_IN).filter((r) => r.includes('/mfa/setup/')))('%s with x-mfa-setup-token', (route) => {
    it('answers 401 to a setup token that is not live, whatever the body', async () => {
      for (const body of BAD_BODIES) {
        const res = await send(route, undefined, body, on, { 'x-mfa-setup-token': 'vms_not-a-live-token' });
        expect(expectSpecError(res, 401, 'MFA_TOKEN_EXPIRED').message, `${route} with ${body.name}`).toBeTruthy();
      }
    });

    it('lets a live setup token through to the body’s own checks', async () => {
      for (const body of BAD_BODIES) {
        const res = await send(route, undefined, body, on, { 'x-mfa-setup-token': setupToken });
        expect([401, 403], `${route} with ${body.name}: ${res.statusCode} ${res.body}`).not.toContain(res.statusCode);
        expect(res.statusCode, `${route} with ${body.name}: ${res.body}`).toBeLessThan(500);
      }
    });
  });

  describe.each(Object.entries(FEATURES))('%s, with %s off', (route) => {
    it('answers 501 to every caller, whatever the body', async () => {
      for (const body of BAD_BODIES) {
        for (const [who, token] of [
          ['anonymous', undefined],
          ['a viewer', viewer],
          ['an admin', admin],
        ] as const) {
          const res = await send(route, token, body, t);
          expect(expectSpecError(res, 501, 'NOT_IMPLEMENTED').message, `${route} with ${body.name}, ${who}`).toBeTruthy();
        }
      }
    });
  });
});
