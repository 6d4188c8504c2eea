import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { png } from '../helpers/media-fixtures.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * The OpenAPI document serves generators (docs/api.md, "OpenAPI"): openapi-typescript makes the
 * types of a started server's document, a client written with openapi-fetch against them
 * compiles under `strict` with no cast, and runs: an upload, creates, a patch with `If-Match` (and
 * a stale one refused), a list with `expand` and a `filter`.
 */
const HERE = fileURLToPath(new URL('.', import.meta.url));
const require = createRequire(import.meta.url);
let t: TestApp;
let base: string;
let token: string;
let dir: string;
let media: string;

beforeAll(async () => {
  media = mkdtempSync(join(tmpdir(), 'vellum-openapi-media-'));
  t = await startTestApp({ schemas: TEST_SCHEMAS, media: { dir: media } });
  await t.app.server.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.server.address() as AddressInfo).port}`;
  token = await t.login(ADMIN.username, ADMIN.password);
  // Inside the repository, so the client resolves openapi-fetch from its node_modules.
  dir = mkdtempSync(join(HERE, '.openapi-'));
});

afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(media, { recursive: true, force: true });
});

/** The client a developer would write: no `as`, no `any`, no `!`. */
const CLIENT = `import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

const client = createClient<paths>({
  baseUrl: process.env.VELLUM_BASE ?? '',
  headers: { authorization: \`Bearer \${process.env.VELLUM_TOKEN ?? ''}\` },
});

async function main(): Promise<void> {
  const upload = await client.POST('/api/media', {
    body: { file: new Blob([readFileSync(new URL('./cover.png', import.meta.url))]), alt: 'A cover' },
    bodySerializer(body) {
      const form = new FormData();
      if (body.alt !== undefined) form.append('alt', body.alt);
      form.append('file', body.file, 'cover.png');
      return form;
    },
  });
  if (!upload.data) throw new Error(\`upload: \${JSON.stringify(upload.error)}\`);
  const cover: string = upload.data.data._id;

  const author = await client.POST('/api/documents/author', { body: { name: 'Ada', _status: 'published' } });
  if (!author.data) throw new Error(\`create author: \${JSON.stringify(author.error)}\`);

  const created = await client.POST('/api/documents/post', {
    body: { title: 'Generated', category: 'news', author: author.data.data._id, cover, tags: ['a', 'b'], _status: 'published' },
  });
  if (!created.data) throw new Error(\`create post: \${JSON.stringify(created.error)}\`);
  const id: string = created.data.data._id;
  const etag = created.response.headers.get('etag') ?? '';

  const patched = await client.PATCH('/api/documents/post/{id}', {
    params: { path: { id }, header: { 'If-Match': etag } },
    body: { title: 'Patched', tags: null },
    headers: { 'content-type': 'application/merge-patch+json' },
  });
  if (!patched.data) throw new Error(\`patch: \${JSON.stringify(patched.error)}\`);
  const stale = await client.PATCH('/api/documents/post/{id}', {
    params: { path: { id }, header: { 'If-Match': etag } },
    body: { title: 'Too late' },
    headers: { 'content-type': 'application/merge-patch+json' },
  });

  const listed = await client.GET('/api/documents/post', {
    params: { query: { expand: 'author', limit: 10, filter: { category: 'news' } } },
  });
  if (!listed.data) throw new Error(\`list: \${JSON.stringify(listed.error)}\`);
  const titles: string[] = listed.data.data.map((post) => post.title);
  const rev: number = patched.data.data._rev;
  console.log(
    JSON.stringify({ titles, rev, tags: patched.data.data.tags ?? null, stale: stale.response.status, author: listed.data.data[0]?.author }),
  );
}

await main();
`;

describe('a client generated from the OpenAPI document', () => {
  it('compiles under strict with no cast and lists, creates, patches with If-Match and uploads', async () => {
    const doc = (await (await fetch(`${base}/api/openapi.json`)).json()) as OpenAPI3;
    const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));
    // openapi-typescript's documented way to type binary fields as Blob.
    const ast = await openapiTS(doc, { transform: (schema) => (schema.format === 'binary' ? BLOB : undefined) });
    writeFileSync(join(dir, 'schema.d.ts'), astToString(ast));
    writeFileSync(join(dir, 'client.ts'), CLIENT);
    writeFileSync(join(dir, 'cover.png'), await png(40, 20));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    expect(CLIENT).not.toMatch(/\bas\b\s+[A-Za-z{[]|\bany\b|[\w)\]]!/);

    const tsc = require.resolve('typescript/bin/tsc');
    const args = [
      '--noEmit',
      '--strict',
      '--target',
      'es2022',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--lib',
      'es2023,dom',
    ];
    const compiled = await run(process.execPath, [tsc, ...args, '--types', 'node', join(dir, 'client.ts')]);
    expect(compiled.code, compiled.out).toBe(0);

    const ran = await run(process.execPath, [require.resolve('tsx/cli'), join(dir, 'client.ts')], {
      VELLUM_BASE: base,
      VELLUM_TOKEN: token,
    });
    expect(ran.code, ran.out).toBe(0);
    const result = JSON.parse(ran.out.trim().split('\n').at(-1)!);
    expect(result).toMatchObject({ titles: ['Patched'], rev: 2, tags: null, stale: 412 });
    expect(result.author).toMatchObject({ _type: 'author', name: 'Ada' });
  });
});

function run(cmd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: dir, env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}
