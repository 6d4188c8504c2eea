import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt } from 'jose';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { ADMIN, type TestApp } from '../helpers/app.js';
import { useContentApp } from '../helpers/use-content-app.js';

/**
 * Hostile and malformed input (docs/api.md: "Errors", "Authentication", "Documents"; spec: Errors, Authentication):
 * every failure is a 4xx with the spec's error body, never a 500, a stack or SQL text.
 */

let t: TestApp;
let admin: string;

useContentApp((app, token) => ((t = app), (admin = token)));

/** Every request of this suite goes through here: whatever the input, the answer is never a 5xx. */
async function call(opts: InjectOptions & { token?: string }): Promise<LightMyRequestResponse> {
  const res = await t.request(opts);
  expect(res.statusCode, `${opts.method} ${opts.url} → ${res.statusCode} ${res.body.slice(0, 500)}`).toBeLessThan(500);
  return res;
}

const LEAKS: RegExp[] = [
  /^\s*at\s+\S/m, // stack frame lines
  /\(\/[^)]*:\d+:\d+\)/, // "(/path/file.ts:12:34)"
  /node_modules/,
  /\bselect\b[\s\S]*\bfrom\b/i,
  /\binsert\s+into\b/i,
  /SQLITE/i,
  /syntax error at/i,
  /\bjson_extract\b|\bjsonb\b|\bto_tsquery\b/i,
];

/** The spec's error body, exactly: `{error: {code, message, details?, retryAfter?}}`, and no internals. */
function expectError(res: LightMyRequestResponse, status: number, code: string) {
  const where = `${res.statusCode} ${res.body.slice(0, 500)}`;
  expect(res.statusCode, where).toBe(status);
  expect(res.statusCode, where).toBeLessThan(500);
  expect(res.headers['content-type'], where).toMatch(/^application\/json/);
  const body = res.json() as { error: { code: unknown; message: unknown; details?: unknown } };
  expect(Object.keys(body), where).toEqual(['error']);
  expect(body.error.code, where).toBe(code);
  expect(typeof body.error.message, where).toBe('string');
  for (const key of Object.keys(body.error)) expect(['code', 'message', 'details', 'retryAfter'], where).toContain(key);
  if (body.error.details !== undefined) {
    expect(Array.isArray(body.error.details), where).toBe(true);
    for (const d of body.error.details as unknown[]) {
      expect(d, where).toEqual({ field: expect.any(String), message: expect.any(String) });
    }
  }
  for (const leak of LEAKS) expect(res.body, `error body leaks internals (${leak}): ${where}`).not.toMatch(leak);
  return body.error as { code: string; message: string; details?: { field: string; message: string }[] };
}

const unique = () => randomBytes(5).toString('hex');
const q = encodeURIComponent;

async function createPost(fields: Record<string, unknown>) {
  const res = await call({ method: 'POST', url: '/api/documents/post', token: admin, payload: fields });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as Record<string, unknown> & { _id: string };
}

async function list(query: string, token: string | undefined = admin) {
  return call({ method: 'GET', url: `/api/documents/post?${query}`, token });
}

const postJson = (payload: string | Buffer, contentType = 'application/json') =>
  call({ method: 'POST', url: '/api/documents/post', token: admin, headers: { 'content-type': contentType }, payload });

describe('malformed bodies', () => {
  it('malformed JSON → 400 INVALID_INPUT', async () => {
    expectError(await postJson('{"title": "broken",'), 400, 'INVALID_INPUT');
    expectError(await postJson("{title: 'not json'}"), 400, 'INVALID_INPUT');
  });

  it('JSON with a __proto__ key → 400', async () => {
    const res = await postJson(`{"title":"proto ${unique()}","__proto__":{"isAdmin":true}}`);
    expectError(res, 400, 'INVALID_INPUT');
    // Nothing was polluted.
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('a wrong content type (text/plain body) → 400 INVALID_INPUT', async () => {
    const json = JSON.stringify({ title: `plain ${unique()}` });
    expectError(await postJson(json, 'application/xml'), 400, 'INVALID_INPUT');
    expectError(await postJson('title=x', 'application/x-www-form-urlencoded'), 400, 'INVALID_INPUT');
    // docs/api.md, "Errors": a wrong content type is 400 INVALID_INPUT; text/plain is not JSON either.
    expectError(await postJson(json, 'text/plain'), 400, 'INVALID_INPUT');
    expectError(await postJson('hello', 'text/plain'), 400, 'INVALID_INPUT');
  });

  it('an empty body with content-type application/json → 400', async () => {
    expectError(await postJson(''), 400, 'INVALID_INPUT');
  });

  it('a JSON array or a JSON string as the body → 422 VALIDATION_ERROR', async () => {
    expectError(await postJson(JSON.stringify([{ title: 'in an array' }])), 422, 'VALIDATION_ERROR');
    expectError(await postJson(JSON.stringify('just a string')), 422, 'VALIDATION_ERROR');
    expectError(await postJson('42'), 422, 'VALIDATION_ERROR');
    expectError(await postJson('null'), 422, 'VALIDATION_ERROR');
  });

  it('a body nested past 100 levels → 400 INVALID_INPUT on create and on PATCH, nothing written', async () => {
    // 5 000 levels overflowed the merge patch's recursion (500) before the limit existed.
    const post = await createPost({ title: `deep ${unique()}` });
    const deep = '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000);
    const json = { 'content-type': 'application/json' };
    for (const [method, url] of [
      ['PATCH', `/api/documents/post/${post._id}`],
      ['PUT', `/api/documents/post/${post._id}`],
      ['POST', '/api/documents/post'],
    ] as const) {
      const error = expectError(
        await call({ method, url, token: admin, headers: json, payload: `{"title":"x","meta":${deep}}` }),
        400,
        'INVALID_INPUT',
      );
      expect(error.message).toMatch(/nested more than 100 levels deep/);
    }
    const after = await call({ method: 'GET', url: `/api/documents/post/${post._id}`, token: admin });
    expect(after.json().data._rev).toBe(post._rev);
  });

  it('a 10 MB JSON body → 413 PAYLOAD_TOO_LARGE', async () => {
    const big = JSON.stringify({ title: 'big', body: 'x'.repeat(10 * 1024 * 1024) });
    expectError(await postJson(big), 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('list query parameters', () => {
  // Each bad value → 400 INVALID_INPUT; where a name is given, the message names what was wrong.
  it.each([
    ['limit=-1', undefined],
    ['limit=abc', undefined],
    ['limit=1.5', undefined],
    ['offset=-5', undefined],
    ['orderBy=nosuchfield', 'nosuchfield'],
    ['order=sideways', undefined],
    ['filter[__proto__]=x', undefined],
    ['filter[constructor]=x', undefined],
    ['filter[title][regex]=x', 'regex'], // an unknown operator
    ['filter[nosuch]=1', 'nosuch'],
    ['filter[price]=abc', undefined], // not a number
    ['filter[featured][gt]=true', undefined], // ordering a boolean
    ['foo=1', 'foo'], // an unknown query parameter
    ['expand=title', undefined], // not a reference
    ['expand=nosuch', 'nosuch'],
    ['fields=nosuch', 'nosuch'],
  ] as const)('%s → 400', async (query, named) => {
    const err = expectError(await list(query), 400, 'INVALID_INPUT');
    if (named) expect(err.message).toContain(named);
  });

  it('limit=500 → 200, clamped to meta.limit 100', async () => {
    const res = await list('limit=500');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().meta.limit).toBe(100);
  });

  it('the same bad parameters on a single-document read → 400', async () => {
    const doc = await createPost({ title: `single ${unique()}` });
    expectError(await call({ method: 'GET', url: `/api/documents/post/${doc._id}?expand=title`, token: admin }), 400, 'INVALID_INPUT');
    expectError(await call({ method: 'GET', url: `/api/documents/post/${doc._id}?fields=nosuch`, token: admin }), 400, 'INVALID_INPUT');
    expectError(await call({ method: 'GET', url: `/api/documents/post/${doc._id}?foo=1`, token: admin }), 400, 'INVALID_INPUT');
  });
});

describe('SQL metacharacters are data, never syntax', () => {
  const META_TITLES = [`'; DROP TABLE documents; --`, `" OR 1=1 --`, '%', '_', '\\', `50% off_${'\\'}x`, `it's "quoted"`];

  it('titles with quotes, %, _ and backslash round-trip and filter by exact equality', async () => {
    const created = new Map<string, string>();
    for (const title of META_TITLES) created.set(title, (await createPost({ title }))._id);
    // The table is still there and holds them.
    const all = await list('limit=100');
    expect(all.statusCode, all.body).toBe(200);
    for (const title of META_TITLES) {
      const res = await list(`filter[title]=${q(title)}&limit=100`);
      expect(res.statusCode, `${title}: ${res.body}`).toBe(200);
      const data = res.json().data as { _id: string; title: string }[];
      expect(
        data.map((d) => d.title),
        `filter[title]=${title}`,
      ).toEqual([title]);
      expect(data[0]._id).toBe(created.get(title));
      const one = await call({ method: 'GET', url: `/api/documents/post/${created.get(title)}`, token: admin });
      expect(one.json().data.title).toBe(title);
    }
  });

  it('filter[title][contains] treats %, _ and backslash literally', async () => {
    const u = unique();
    const withPercent = await createPost({ title: `discount 100% ${u}` });
    const withUnderscore = await createPost({ title: `snake_case ${u}` });
    const withBackslash = await createPost({ title: `back\\slash ${u}` });
    await createPost({ title: `plain words ${u}` });

    for (const [needle, mustFind] of [
      ['%', withPercent._id],
      ['_', withUnderscore._id],
      ['\\', withBackslash._id],
    ] as const) {
      const res = await list(`filter[title][contains]=${q(needle)}&limit=100`);
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data as { _id: string; title: string }[];
      expect(data.length).toBeGreaterThan(0);
      for (const d of data) expect(d.title, `contains ${needle}`).toContain(needle);
      expect(data.map((d) => d._id)).toContain(mustFind);
      expect(res.json().meta.total).toBe(data.length);
    }
    // startsWith too: a lone % is not "anything".
    const starts = await list(`filter[title][startsWith]=${q('%')}&limit=100`);
    expect(starts.statusCode, starts.body).toBe(200);
    for (const d of starts.json().data as { title: string }[]) expect(d.title.startsWith('%')).toBe(true);
  });

  it("GET /api/documents/post/'%20OR%20'1'='1 → 404", async () => {
    await createPost({ title: `exists ${unique()}` });
    expectError(await call({ method: 'GET', url: "/api/documents/post/'%20OR%20'1'='1", token: admin }), 404, 'NOT_FOUND');
    expectError(await call({ method: 'GET', url: `/api/documents/post/${q("x' OR '1'='1")}` }), 404, 'NOT_FOUND');
  });

  it('quotes inside filter[_id][in] values → 200, no match, no crash', async () => {
    const doc = await createPost({ title: `in-list ${unique()}` });
    const values = [`a'b`, `"c"`, `d'); DROP TABLE documents; --`, `e\\`, `%`];
    const res = await list(`filter[_id][in]=${q(values.join(','))}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([]);
    const nin = await list(`filter[_id][nin]=${q(values.join(','))}&limit=100`);
    expect(nin.statusCode, nin.body).toBe(200);
    expect((nin.json().data as { _id: string }[]).map((d) => d._id)).toContain(doc._id);
    // Mixed with a real id, only that one comes back.
    const mixed = await list(`filter[_id][in]=${q([...values, doc._id].join(','))}`);
    expect((mixed.json().data as { _id: string }[]).map((d) => d._id)).toEqual([doc._id]);
  });

  it('search with engine syntax (quotes, operators, wildcards) → 200, never 500', async () => {
    await createPost({ title: `searchable alpha ${unique()}` });
    for (const search of ['"unterminated', 'a* OR NOT (', '***', 'NEAR(a b)', "'; --", 'title:alpha', '-alpha', '^alpha', '"']) {
      const res = await list(`search=${q(search)}`);
      expect(res.statusCode, `search=${search}: ${res.body}`).toBe(200);
      expect(Array.isArray(res.json().data)).toBe(true);
    }
    const none = await list(`search=${q('***')}`);
    expect(none.json().data).toEqual([]);
  });
});

describe('unicode and emoji', () => {
  const TITLE = 'Grüße 🚀 — 日本語';

  it('a unicode title round-trips byte-identical, slugifies by the rules and filters exactly', async () => {
    const doc = await createPost({ title: TITLE });
    expect(doc.title).toBe(TITLE);
    // Slug rules (docs/api.md, "Slug rules"; slugify.ts): Latin transliterated (ü → ue, ß → ss),
    // CJK kept as letters, the emoji and the dash one '-'.
    expect(doc.slug).toEqual({ current: 'gruesse-日本語' });
    const bySlug = await list(`filter[slug]=${q('gruesse-日本語')}`);
    expect((bySlug.json().data as { _id: string }[]).map((d) => d._id)).toEqual([doc._id]);

    const res = await call({ method: 'GET', url: `/api/documents/post/${doc._id}`, token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const title = res.json().data.title as string;
    expect(title).toBe(TITLE);
    expect(Buffer.from(title, 'utf8').equals(Buffer.from(TITLE, 'utf8'))).toBe(true);
    expect(res.rawPayload.includes(Buffer.from(TITLE, 'utf8'))).toBe(true);

    const filtered = await list(`filter[title]=${q(TITLE)}`);
    expect(filtered.statusCode, filtered.body).toBe(200);
    expect((filtered.json().data as { _id: string }[]).map((d) => d._id)).toEqual([doc._id]);
    // NFC vs NFD: a differently normalised value is a different string, not a crash.
    const nfd = await list(`filter[title]=${q(TITLE.normalize('NFD'))}`);
    expect(nfd.statusCode, nfd.body).toBe(200);
  });

  it('search=日本語 and search=grüße → 200', async () => {
    const doc = await createPost({ title: `${TITLE} search ${unique()}` });
    for (const search of ['日本語', 'grüße', 'GRÜSSE', '🚀']) {
      const res = await list(`search=${q(search)}&limit=100`);
      expect(res.statusCode, `search=${search}: ${res.body}`).toBe(200);
    }
    for (const search of ['日本語', 'grüße']) {
      const res = await list(`search=${q(search)}&limit=100`);
      expect(
        (res.json().data as { _id: string }[]).map((d) => d._id),
        `search=${search}`,
      ).toContain(doc._id);
    }
  });

  it('a lone surrogate in a JSON string → 4xx or stored, never 500', async () => {
    const res = await postJson(`{"title":"bad \\ud800 surrogate ${unique()}"}`);
    expect(res.statusCode, res.body).toBeLessThan(500);
    if (res.statusCode >= 400) expectError(res, res.statusCode, res.json().error.code);
  });

  it('a NUL character in a JSON string → 4xx or stored, never 500', async () => {
    const res = await postJson(`{"title":"nul \\u0000 byte ${unique()}"}`);
    expect(res.statusCode, res.body).toBeLessThan(500);
    if (res.statusCode >= 400) expectError(res, res.statusCode, res.json().error.code);
  });

  it('a NUL character in a filter or search value → 200 or 400, never 500', async () => {
    // Created directly (PostgreSQL may refuse it; that is the previous test's business).
    const withNul = await t.request({
      method: 'POST',
      url: '/api/documents/post',
      token: admin,
      payload: { title: `has \u0000 nul ${unique()}` },
    });
    await createPost({ title: `no nul here ${unique()}` });
    const wrong: string[] = [];
    for (const query of [
      `filter[title]=${q('a\u0000b')}`,
      `filter[title][contains]=${q('\u0000')}`,
      `filter[title][startsWith]=${q('\u0000')}`,
      `filter[_id][in]=${q('a\u0000b,c')}`,
      `filter[_id]=${q('a\u0000b')}`,
      `search=${q('a\u0000b')}`,
    ]) {
      const res = await t.request({ method: 'GET', url: `/api/documents/post?${query}&limit=100`, token: admin });
      if (res.statusCode !== 200 && res.statusCode !== 400) wrong.push(`GET /api/documents/post?${query} → ${res.statusCode} ${res.body}`);
      else if (res.statusCode === 400) expectError(res, 400, 'INVALID_INPUT');
      else if (query.startsWith('filter[title][contains]')) {
        // A NUL is a character like any other: "contains NUL" matches only titles holding one.
        for (const d of res.json().data as { title: string }[]) {
          if (!d.title.includes('\u0000')) wrong.push(`GET /api/documents/post?${query} matched ${JSON.stringify(d.title)}`);
        }
        if (withNul.statusCode === 201) {
          const ids = (res.json().data as { _id: string }[]).map((d) => d._id);
          if (!ids.includes(withNul.json().data._id)) wrong.push(`GET /api/documents/post?${query} missed the title with a NUL`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  // NUL and lone surrogates are refused at the edge for body, query and path alike (docs/api.md).
  it('a NUL character in a document id in the path → 400 INVALID_INPUT, never 500', async () => {
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await t.request({
        method,
        url: '/api/documents/post/a%00b',
        token: admin,
        payload: method === 'PUT' || method === 'PATCH' ? { title: 'x' } : undefined,
      });
      expectError(res, 400, 'INVALID_INPUT');
    }
  });

  it('malformed percent-encoding in the path → 400 INVALID_INPUT with the spec error body', async () => {
    for (const url of ['/api/documents/post/%ED%A0%80', '/api/documents/post/%zz', '/api/documents/post/%E2%82']) {
      const res = await call({ method: 'GET', url, token: admin });
      expectError(res, 400, 'INVALID_INPUT');
    }
  });
});

describe('tokens', () => {
  async function loginFull() {
    const res = await call({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN.username, password: ADMIN.password } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { token: string; refreshToken: string };
  }
  const me = (authorization: string) => call({ method: 'GET', url: '/api/auth/me', headers: { authorization } });
  const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

  it('a real access token works (control)', async () => {
    const res = await me(`Bearer ${admin}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.username).toBe(ADMIN.username);
  });

  /** A token with the admin's claims, changed as a test needs: signed by `key`, valid from `iat` to `exp`. */
  function tokenLike(opts: { typ: string; key: Parameters<SignJWT['sign']>[0]; iat?: number; exp?: number | string }) {
    const claims = decodeJwt(admin);
    return new SignJWT({ sid: claims.sid, role: claims.role, typ: opts.typ })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub as string)
      .setIssuer(claims.iss as string)
      .setIssuedAt(opts.iat)
      .setExpirationTime(opts.exp ?? '1h')
      .sign(opts.key);
  }

  it('a forged JWT (right shape, another secret) → 401 UNAUTHORIZED', async () => {
    const forged = await tokenLike({ typ: 'access', key: new TextEncoder().encode('not-the-server-secret-not-the-server-secret') });
    expectError(await me(`Bearer ${forged}`), 401, 'UNAUTHORIZED');
  });

  it('an expired JWT signed with the right secret → 401', async () => {
    const claims = decodeJwt(admin);
    expect(claims).toMatchObject({ sub: expect.any(String), sid: expect.any(String), role: 'admin', typ: 'access', iss: 'vellum' });
    const past = Math.floor(Date.now() / 1000) - 7200;
    const expired = await tokenLike({ typ: 'access', key: t.app.services.jwtKey.cryptoKey, iat: past, exp: past + 60 });
    expectError(await me(`Bearer ${expired}`), 401, 'UNAUTHORIZED');
  });

  it('an alg:none token → 401', async () => {
    const payload = decodeJwt(admin);
    const none = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(payload)}.`;
    expectError(await me(`Bearer ${none}`), 401, 'UNAUTHORIZED');
    // The same with the original signature kept: still not HS256-valid for the new header.
    const [, , sig] = admin.split('.');
    expectError(await me(`Bearer ${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(payload)}.${sig}`), 401, 'UNAUTHORIZED');
  });

  it("a token with typ 'mfa' signed with the right key → 401", async () => {
    const mfa = await tokenLike({ typ: 'mfa', key: t.app.services.jwtKey.cryptoKey });
    expectError(await me(`Bearer ${mfa}`), 401, 'UNAUTHORIZED');
  });

  it('a NUL byte or a lone surrogate in login credentials → 400 INVALID_INPUT, never 500', async () => {
    for (const payload of [
      `{"username":"a\\u0000b","password":"whatever-password"}`,
      `{"username":"${ADMIN.username}","password":"a\\u0000b"}`,
      `{"username":"a\\ud800b","password":"whatever-password"}`,
    ]) {
      const res = await call({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload });
      expectError(res, 400, 'INVALID_INPUT');
    }
  });

  it("garbage 'Bearer abc' → 401", async () => {
    expectError(await me('Bearer abc'), 401, 'UNAUTHORIZED');
    expectError(await me('Bearer a.b.c'), 401, 'UNAUTHORIZED');
    expectError(await me('Bearer '), 401, 'UNAUTHORIZED');
  });

  it("a 'Basic xyz' header → 401", async () => {
    expectError(await me('Basic xyz'), 401, 'UNAUTHORIZED');
    expectError(await me(`Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`), 401, 'UNAUTHORIZED');
  });

  it('a refresh token is refused as a bearer on /auth/me but accepted as the bearer of POST /auth/refresh', async () => {
    const first = await loginFull();
    expectError(await me(`Bearer ${first.refreshToken}`), 401, 'UNAUTHORIZED');
    // With an empty JSON object as the body.
    const withBody = await call({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { authorization: `Bearer ${first.refreshToken}` },
      payload: {},
    });
    expect(withBody.statusCode, withBody.body).toBe(200);
    // With no body at all: the natural form of "the refresh token as the bearer" (docs/api.md, "Authentication").
    const { refreshToken } = await loginFull();
    const res = await call({ method: 'POST', url: '/api/auth/refresh', headers: { authorization: `Bearer ${refreshToken}` } });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as { token: string; refreshToken: string };
    expect(typeof data.token).toBe('string');
    expect(data.refreshToken).not.toBe(refreshToken);
    expect((await me(`Bearer ${data.token}`)).statusCode).toBe(200);
  });

  it('an unknown vlm_ API token → 401', async () => {
    const fake = `vlm_${'A1b2C3d4E5'.repeat(4)}xyz`;
    expect(fake).toHaveLength(47);
    expectError(await me(`Bearer ${fake}`), 401, 'UNAUTHORIZED');
    expectError(
      await call({ method: 'GET', url: '/api/documents/post', headers: { authorization: `Bearer ${fake}` } }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('an invalid bearer on a public endpoint (GET /api/documents/post) → 401 too', async () => {
    const anon = await call({ method: 'GET', url: '/api/documents/post' });
    expect(anon.statusCode, anon.body).toBe(200);
    expectError(await call({ method: 'GET', url: '/api/documents/post', headers: { authorization: 'Bearer abc' } }), 401, 'UNAUTHORIZED');
  });
});

describe('unknown routes, types and fields', () => {
  it('an unknown route → 404 NOT_FOUND', async () => {
    expectError(await call({ method: 'GET', url: '/api/nosuch/route' }), 404, 'NOT_FOUND');
    expectError(await call({ method: 'POST', url: '/api/nosuch', payload: {} }), 404, 'NOT_FOUND');
  });

  it('an unknown document type → 404', async () => {
    expectError(await call({ method: 'GET', url: '/api/documents/nosuchtype', token: admin }), 404, 'NOT_FOUND');
    expectError(await call({ method: 'GET', url: '/api/documents/nosuchtype/abc', token: admin }), 404, 'NOT_FOUND');
    expectError(await call({ method: 'POST', url: '/api/documents/nosuchtype', token: admin, payload: { title: 'x' } }), 404, 'NOT_FOUND');
    expectError(await call({ method: 'GET', url: '/api/documents/__proto__', token: admin }), 404, 'NOT_FOUND');
    expectError(await call({ method: 'GET', url: '/api/documents/constructor', token: admin }), 404, 'NOT_FOUND');
  });

  it('PUT with an unknown field → 422 naming it in details', async () => {
    const doc = await createPost({ title: `put-unknown ${unique()}` });
    const res = await call({
      method: 'PUT',
      url: `/api/documents/post/${doc._id}`,
      token: admin,
      payload: { title: 'still valid', bogusField: 1 },
    });
    const err = expectError(res, 422, 'VALIDATION_ERROR');
    expect(err.details?.map((d) => d.field)).toContain('bogusField');
  });

  it('nested invalid values report dotted paths (seo.title, tags.2)', async () => {
    const doc = await createPost({ title: `nested ${unique()}` });
    const payload = { title: 'nested', seo: { title: 'x'.repeat(61) }, tags: ['a', 'b', 3] };
    for (const method of ['PUT', 'PATCH'] as const) {
      const err = expectError(
        await call({ method, url: `/api/documents/post/${doc._id}`, token: admin, payload }),
        422,
        'VALIDATION_ERROR',
      );
      const fields = err.details?.map((d) => d.field);
      expect(fields, method).toContain('seo.title');
      expect(fields, method).toContain('tags.2');
    }
    const created = expectError(
      await call({ method: 'POST', url: '/api/documents/post', token: admin, payload: { ...payload, seo: { nosuch: 1 } } }),
      422,
      'VALIDATION_ERROR',
    );
    expect(created.details?.map((d) => d.field)).toEqual(expect.arrayContaining(['seo.nosuch', 'tags.2']));
  });
});
