import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { pdf } from '../helpers/media-fixtures.js';
import { multipartUpload } from '../helpers/multipart-upload.js';
import { form } from '../helpers/oauth2.js';
import { useOidcProvider } from '../helpers/oidc-provider.js';
import { PASSKEY_ORIGIN } from '../helpers/passkey-client.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * One text rule for every way text enters (docs/api.md, "Errors"): a string holding a NUL character
 * or a lone UTF-16 surrogate is 400 `INVALID_INPUT` naming where it was — JSON bodies, OAuth's form
 * bodies, query, path, headers, multipart field names, values and file names — and nothing is stored.
 */

let t: TestApp;
let admin: string;
const mediaDir = mkdtempSync(join(tmpdir(), 'vellum-text-'));
const idp = useOidcProvider();

// Passkeys, the identity provider and OAuth 2.0 on: a switched-off feature answers 501 before the body is read.
useAdminApp(
  () =>
    startTestApp({
      schemas: TEST_SCHEMAS,
      media: { dir: mediaDir },
      oauth2: { enabled: true },
      security: {
        oauth: idp.config().security.oauth,
        passkey: { enabled: true, rpId: 'localhost', rpName: 'Vellum', origin: PASSKEY_ORIGIN },
      },
    }),
  (app, token) => {
    t = app;
    admin = token;
  },
);
afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

type Table = 'documents' | 'media' | 'sessions' | 'audit_log' | 'oauth_device_codes';

/** Rows of the tables an entry point could write to, and the files in the media store. */
async function stored(): Promise<Record<Table | 'files', number>> {
  const { db } = t.app.services.database;
  const count = async (table: Table) => (await db.selectFrom(table).selectAll().execute()).length;
  return {
    documents: await count('documents'),
    media: await count('media'),
    sessions: await count('sessions'),
    audit_log: await count('audit_log'),
    oauth_device_codes: await count('oauth_device_codes'),
    files: readdirSync(mediaDir, { recursive: true }).length,
  };
}

/** 400 INVALID_INPUT whose one detail names `field`, and nothing written anywhere. */
async function refused(send: () => Promise<LightMyRequestResponse>, field: string) {
  const before = await stored();
  const res = await send();
  const error = expectSpecError(res, 400, 'INVALID_INPUT');
  expect(error.details, res.body).toEqual([{ field, message: 'must be valid Unicode text without NUL characters' }]);
  expect(await stored()).toEqual(before);
}

const SIGN_IN = { username: ADMIN.username, password: ADMIN.password };

const upload =
  (fields: Record<string, string>, filename = 'report.pdf') =>
  async () =>
    t.request({ method: 'POST', url: '/api/media', token: admin, ...(await multipartUpload(pdf(), filename, fields)) });

/** A multipart body written by hand, for part headers FormData would not send. */
function rawMultipart(parts: string[]) {
  const boundary = 'vellum-text-boundary';
  const payload = Buffer.concat([
    ...parts.map((p) => Buffer.from(`--${boundary}\r\n${p}\r\n`, 'latin1')),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('multipart: POST /media', () => {
  it('a control upload with the same parts is stored (201)', async () => {
    const res = await upload({ alt: 'a chart', title: 'Q3' })();
    expect(res.statusCode, res.body).toBe(201);
  });

  it.each([
    ['alt', { alt: 'a\u0000b' }, 'body.alt'],
    ['title', { title: 'quarterly\u0000report' }, 'body.title'],
    ['_id', { _id: 'a\u0000b' }, 'body._id'],
    ['title, after a good alt', { alt: 'fine', title: '\u0000' }, 'body.title'],
  ])('a NUL in a field (%s) → 400 naming it, nothing stored', async (_name, fields, field) => {
    await refused(upload(fields), field);
  });

  it('a NUL in a field read after the file → 400, the spooled file left nowhere', async () => {
    const body = rawMultipart([
      'Content-Disposition: form-data; name="file"; filename="report.pdf"\r\nContent-Type: application/pdf\r\n\r\n' +
        pdf().toString('latin1'),
      'Content-Disposition: form-data; name="alt"\r\n\r\nafter\u0000the file',
    ]);
    await refused(() => t.request({ method: 'POST', url: '/api/media', token: admin, ...body }), 'body.alt');
  });

  it('a NUL in the file name → 400 naming the file name, nothing stored', async () => {
    await refused(upload({}, 'pa\u0000ss.pdf'), 'body.file (filename)');
  });

  it('a NUL in the file name as RFC 5987 filename* → 400, nothing stored', async () => {
    const body = rawMultipart([
      'Content-Disposition: form-data; name="file"; filename*=UTF-8\'\'pa%00ss.pdf\r\nContent-Type: application/pdf\r\n\r\n' +
        pdf().toString('latin1'),
    ]);
    await refused(() => t.request({ method: 'POST', url: '/api/media', token: admin, ...body }), 'body.file (filename)');
  });

  it('a NUL in a field name → 400 naming a key, nothing stored', async () => {
    await refused(upload({ 'al\u0000t': 'x' }), 'body.(key)');
  });
});

describe('JSON bodies', () => {
  const create = (payload: string) => () =>
    t.request({ method: 'POST', url: '/api/documents/post', token: admin, headers: { 'content-type': 'application/json' }, payload });

  it('a NUL in a document field → 400 naming it, nothing stored', async () => {
    await refused(create('{"title":"nul \\u0000 byte"}'), 'body.title');
  });

  it('a lone surrogate in a document field → 400 naming it, nothing stored', async () => {
    await refused(create('{"title":"bad \\ud800 surrogate"}'), 'body.title');
  });

  it('a NUL deeper than 64 levels in a json field → 400, nothing stored', async () => {
    const deep = `${'['.repeat(80)}"\\u0000"${']'.repeat(80)}`;
    await refused(create(`{"title":"deep","meta":${deep}}`), `body.meta.${Array(62).fill('0').join('.')}.…`);
  });

  it.each([
    ['POST /auth/passkey/login/verify', '/api/auth/passkey/login/verify', { response: { id: 'a\u0000b' } }, 'body.response.id'],
    ['POST /auth/oauth/idp/callback', '/api/auth/oauth/idp/callback', { code: 'c', state: 's\u0000' }, 'body.state'],
    ['POST /auth/login', '/api/auth/login', { username: ADMIN.username, password: 'x\u0000' }, 'body.password'],
  ])('%s → 400 naming the field', async (_name, url, payload, field) => {
    await refused(() => t.request({ method: 'POST', url, payload }), field);
  });
});

describe('query and path', () => {
  it('a NUL in a query parameter → 400 naming it', async () => {
    await refused(() => t.request({ method: 'GET', url: '/api/media?search=a%00b', token: admin }), 'query.search');
  });

  it.each([
    ['PATCH', '/api/media/a%00b', 'path.id'],
    ['GET', '/api/media/files/a%00b.pdf', 'path.key'],
  ] as const)('a NUL in a path parameter (%s %s) → 400 naming it, nothing changed', async (method, url, field) => {
    await refused(() => t.request({ method, url, token: admin, payload: method === 'PATCH' ? { alt: 'x' } : undefined }), field);
  });
});

describe('headers', () => {
  it('a sign-in with a plain User-Agent is stored (control): a session and an audit record', async () => {
    const before = await stored();
    const res = await t.request({ method: 'POST', url: '/api/auth/login', headers: { 'user-agent': 'plain agent' }, payload: SIGN_IN });
    expect(res.statusCode, res.body).toBe(200);
    const after = await stored();
    expect(after.sessions).toBeGreaterThan(before.sessions);
    expect(after.audit_log).toBeGreaterThan(before.audit_log);
  });

  it('a NUL in User-Agent (stored with sessions and the audit log) → 400, no session, no audit record', async () => {
    await refused(
      () => t.request({ method: 'POST', url: '/api/auth/login', headers: { 'user-agent': 'evil\u0000agent' }, payload: SIGN_IN }),
      'header.user-agent',
    );
  });

  it('a NUL in If-Match → 400 naming it, the document unchanged', async () => {
    const created = await t.request({ method: 'POST', url: '/api/documents/post', token: admin, payload: { title: 'kept' } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data._id as string;
    await refused(
      () =>
        t.request({
          method: 'PATCH',
          url: `/api/documents/post/${id}`,
          token: admin,
          headers: { 'if-match': '"1\u0000"' },
          payload: { title: 'changed' },
        }),
      'header.if-match',
    );
    expect((await t.request({ method: 'GET', url: `/api/documents/post/${id}`, token: admin })).json().data.title).toBe('kept');
  });

  it('a lone surrogate in a header the server does not read → 400 naming it', async () => {
    await refused(() => t.request({ method: 'GET', url: '/api/health', headers: { 'x-note': 'a\ud800b' } }), 'header.x-note');
  });

  it('over a real socket, Node refuses a NUL in a header before the app: 400 INVALID_INPUT, no session', async () => {
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.server.address() as { port: number };
    const before = await stored();
    const body = JSON.stringify(SIGN_IN);
    const request = Buffer.from(
      `POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nUser-Agent: evil\u0000agent\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      'latin1',
    );
    const answer = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket = connect(port, '127.0.0.1', () => socket.write(request));
      socket.on('data', (d) => chunks.push(d));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    const [head, payload] = answer.split('\r\n\r\n');
    expect(head, answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(payload).error.code).toBe('INVALID_INPUT');
    expect(await stored()).toEqual(before);
  });
});

describe("OAuth's form bodies", () => {
  /** The RFC's error body (RFC 6749 §5.2), its description naming the field. */
  async function refusedRfc(url: string, body: Record<string, string>, field: string) {
    const before = await stored();
    const res = await t.request({ method: 'POST', url, ...form(body) });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ error: 'invalid_request', error_description: expect.stringContaining(field) });
    expect(await stored()).toEqual(before);
  }

  it('a NUL in a device authorization request → 400 invalid_request, no device code', async () => {
    await refusedRfc('/api/auth/device', { client_id: 'service-cli', scope: 'content:read\u0000' }, 'body.scope');
  });

  it('a NUL in a token request → 400 invalid_request', async () => {
    await refusedRfc(
      '/api/auth/token',
      { grant_type: 'refresh_token', refresh_token: 'a\u0000b', client_id: 'service-cli' },
      'body.refresh_token',
    );
  });

  it('a NUL in a revocation request → 400 invalid_request', async () => {
    await refusedRfc('/api/auth/revoke', { token: 'a\u0000b', client_id: 'service-cli' }, 'body.token');
  });
});
