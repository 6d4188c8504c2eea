import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, ADMIN, type TestApp } from '../helpers/app.js';
import { assertCliBuilt, runCli } from '../helpers/cli.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/** A port nothing listens on: one the system just handed out and took back. */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

type Doc = Record<string, unknown> & { _id: string; _rev: number; _status: string };

describe('vellum docs and vellum config against a running server', () => {
  let t: TestApp;
  let baseUrl: string;
  let writer: string;
  let reader: string;
  let configDir: string;
  let work: string;

  /** The CLI with the writer's API token and a config folder of this file's own. */
  const cli = (args: string[], opts: { env?: Record<string, string>; input?: string } = {}) =>
    runCli(args, { env: { VELLUM_URL: baseUrl, VELLUM_TOKEN: writer, VELLUM_CONFIG_DIR: configDir, ...opts.env }, input: opts.input });
  const json = <T>(stdout: string) => JSON.parse(stdout) as T;
  const ndjson = <T>(stdout: string) =>
    stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as T);

  const apiToken = async (admin: string, permissions: string[]) => {
    const res = await t.request({
      method: 'POST',
      url: '/api/tokens',
      token: admin,
      payload: { name: `cli ${permissions.join(' ')}`, permissions },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.token as string;
  };

  beforeAll(async () => {
    assertCliBuilt();
    configDir = join(mkdtempSync(join(tmpdir(), 'vellum-cli-config-')), 'vellum');
    work = mkdtempSync(join(tmpdir(), 'vellum-cli-docs-'));
    t = await startTestApp({ schemas: TEST_SCHEMAS });
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.server.address() as AddressInfo).port}/api`;
    const admin = await t.login(ADMIN.username, ADMIN.password);
    writer = await apiToken(admin, ['content:read', 'content:write', 'content:publish', 'content:delete']);
    reader = await apiToken(admin, ['content:read']);
  });

  afterAll(async () => {
    await t?.close();
    rmSync(join(configDir, '..'), { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  const created: Doc[] = [];

  it('docs create takes the document from --data, --file or stdin (-) and prints it in the format asked', async () => {
    const fromData = await cli(['docs', 'create', 'post', '--data', '{"title":"Alpha","price":30,"category":"news"}', '--format', 'json']);
    expect(fromData.code, fromData.stderr).toBe(0);
    created.push(json<Doc>(fromData.stdout));
    expect(created[0]).toMatchObject({ title: 'Alpha', slug: { current: 'alpha' }, _status: 'draft', _rev: 1 });

    writeFileSync(join(work, 'beta.json'), '{"title":"Beta","price":5,"category":"guide","_status":"published"}');
    const fromFile = await cli(['docs', 'create', 'post', '--file', join(work, 'beta.json'), '--format', 'ndjson']);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.stdout.trimEnd().split('\n')).toHaveLength(1);
    created.push(json<Doc>(fromFile.stdout));
    expect(created[1]).toMatchObject({ title: 'Beta', _status: 'published' });

    const fromStdin = await cli(['docs', 'create', 'post', '-', '--format', 'table'], { input: '{"title":"Gamma","price":12}' });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(fromStdin.stdout).toMatch(/^field\s+value\n/);
    const id = /^_id\s+(\S+)$/m.exec(fromStdin.stdout)?.[1];
    expect(fromStdin.stdout).toMatch(/^title\s+Gamma$/m);
    created.push((await t.request({ method: 'GET', url: `/api/documents/post/${id}`, token: writer })).json().data as Doc);
    expect(created[2].title).toBe('Gamma');
  });

  it('docs list answers json ({data, meta}), ndjson (one document a line) and a table with a header; json when not a terminal', async () => {
    const asJson = await cli(['docs', 'list', 'post', '--format', 'json']);
    expect(asJson.code, asJson.stderr).toBe(0);
    const body = json<{ data: Doc[]; meta: { total: number } }>(asJson.stdout);
    expect(body.meta.total).toBe(3);
    expect(body.data.map((d) => d.title)).toEqual(['Gamma', 'Beta', 'Alpha']);

    const byDefault = await cli(['docs', 'list', 'post']);
    expect(json(byDefault.stdout)).toEqual(body);

    const asNdjson = await cli(['docs', 'list', 'post', '--format', 'ndjson']);
    expect(ndjson<Doc>(asNdjson.stdout)).toEqual(body.data);

    const table = await cli(['docs', 'list', 'post', '--format', 'table']);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    // The first few scalar fields follow the system columns; a slug shows its current value.
    const header = lines[0].split(/\s+/);
    expect(header.slice(0, 3)).toEqual(['_id', '_status', '_rev']);
    expect(header).toEqual(expect.arrayContaining(['title', 'slug']));
    expect(header.length).toBeLessThanOrEqual(7);
    expect(lines.slice(1, 4).map((l) => l.split(/\s+/)[0])).toEqual(body.data.map((d) => d._id));
    const beta = lines[2].split(/\s{2,}/);
    expect(beta.slice(1, 3)).toEqual(['published', '1']);
    expect(beta[header.indexOf('title')]).toBe('Beta');
    expect(beta[header.indexOf('slug')]).toBe('beta');
    expect(lines[4]).toBe('(1–3 of 3)');
  });

  it('docs list --format table fits COLUMNS, cutting cells with … but never the _id', async () => {
    const run = await cli(['docs', 'list', 'post', '--format', 'table'], { env: { COLUMNS: '60' } });
    const lines = run.stdout.trimEnd().split('\n');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(60);
    expect(lines[1].split(/\s+/)[0]).toBe(created[2]._id);
  });

  it('docs list passes --filter (field=value, field[op]=value), --order-by, --limit, --offset and --search', async () => {
    const titles = async (...args: string[]) => {
      const run = await cli(['docs', 'list', 'post', '--format', 'ndjson', ...args]);
      expect(run.code, run.stderr).toBe(0);
      return ndjson<Doc>(run.stdout).map((d) => d.title);
    };
    expect(await titles('--filter', 'category=news')).toEqual(['Alpha']);
    expect(await titles('--filter', 'price[gte]=10', '--order-by', 'price')).toEqual(['Gamma', 'Alpha']);
    expect(await titles('--filter', 'price[gte]=10', '--filter', 'price[lt]=20')).toEqual(['Gamma']);
    expect(await titles('--order-by', '-price')).toEqual(['Alpha', 'Gamma', 'Beta']);
    expect(await titles('--order-by', 'title', '--limit', '1', '--offset', '1')).toEqual(['Beta']);
    expect(await titles('--search', 'gam')).toEqual(['Gamma']);
  });

  it('docs get prints one document in each format', async () => {
    const [alpha] = created;
    const asJson = await cli(['docs', 'get', 'post', alpha._id, '--format', 'json']);
    expect(json<Doc>(asJson.stdout)).toEqual(alpha);
    const asNdjson = await cli(['docs', 'get', 'post', alpha._id, '--format', 'ndjson']);
    expect(ndjson<Doc>(asNdjson.stdout)).toEqual([alpha]);
    const table = await cli(['docs', 'get', 'post', alpha._id, '--format', 'table']);
    expect(table.stdout).toMatch(/^field\s+value\n/);
    expect(table.stdout).toMatch(/^slug\s+alpha$/m);
    // --json is --format json, as on every command that prints a result; with another --format it is a usage error.
    const viaJson = await cli(['docs', 'get', 'post', alpha._id, '--json']);
    expect(viaJson.stdout).toBe(asJson.stdout);
    const both = await cli(['docs', 'get', 'post', alpha._id, '--json', '--format', 'table']);
    expect([both.code, both.stderr]).toEqual([64, 'vellum: --json and --format table ask for two outputs: give one\n']);
  });

  it('docs update merge-patches (null removes a field) and checks --if-match: a stale revision is 412', async () => {
    const [alpha] = created;
    const run = await cli(['docs', 'update', 'post', alpha._id, '--data', '{"category":null,"views":7}', '--if-match', '1']);
    expect(run.code, run.stderr).toBe(0);
    const updated = json<Doc>(run.stdout);
    expect(updated).toMatchObject({ _rev: 2, title: 'Alpha', views: 7 });
    expect(updated).not.toHaveProperty('category');

    const stale = await cli(['docs', 'update', 'post', alpha._id, '-', '--if-match', '1'], { input: '{"views":8}' });
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/^vellum: 412 PRECONDITION_FAILED: .+\n$/);
  });

  it('docs delete removes the document; a later get is a one-line 404 with exit 1', async () => {
    const gamma = created[2];
    const run = await cli(['docs', 'delete', 'post', gamma._id]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    const gone = await cli(['docs', 'get', 'post', gamma._id]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toBe('vellum: 404 NOT_FOUND: Document not found\n');
  });

  it('--expand replaces references with documents, --fields narrows a list; deleting a referenced document is 409 unless --force', async () => {
    const author = json<Doc>((await cli(['docs', 'create', 'author', '--data', '{"name":"Ada"}'])).stdout);
    const post = json<Doc>(
      (await cli(['docs', 'create', 'post', '--data', JSON.stringify({ title: 'By Ada', author: author._id })])).stdout,
    );
    const plain = json<Doc>((await cli(['docs', 'get', 'post', post._id])).stdout);
    expect(plain.author).toBe(author._id);
    const expanded = json<Doc>((await cli(['docs', 'get', 'post', post._id, '--expand', 'author'])).stdout);
    expect(expanded.author).toMatchObject({ _id: author._id, name: 'Ada' });
    const listed = ndjson<Doc>(
      (await cli(['docs', 'list', 'post', '--filter', 'title=By Ada', '--fields', 'title', '--expand', 'author', '--format', 'ndjson']))
        .stdout,
    );
    expect(listed).toHaveLength(1);
    expect(
      Object.keys(listed[0])
        .filter((k) => !k.startsWith('_'))
        .sort(),
    ).toEqual(['author', 'title']);
    expect(listed[0].author).toMatchObject({ name: 'Ada' });

    const refused = await cli(['docs', 'delete', 'author', author._id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `vellum: 409 CONFLICT: other documents reference author ${author._id} (author: referenced by post ${post._id}); run again with --force to delete it anyway\n`,
    );
    const forced = await cli(['docs', 'delete', 'author', author._id, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toBe(`deleted author ${author._id}\n`);
    expect((await cli(['docs', 'delete', 'post', post._id])).code).toBe(0);
  });

  it('a token without the permission gets the API error as one line and exit 77', async () => {
    const run = await cli(['docs', 'create', 'post', '--data', '{"title":"Nope"}'], { env: { VELLUM_TOKEN: reader } });
    expect(run.code).toBe(77);
    expect(run.stderr).toBe('vellum: 403 FORBIDDEN: Missing permission post:write\n');
  });

  it('validation errors name the fields; bad JSON input exits 65; bad usage exits 64', async () => {
    const invalid = await cli(['docs', 'create', 'post', '--data', '{"price":-1}']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/^vellum: 422 VALIDATION_ERROR: .*\(.*title: .*price: .*\)\n$/);
    const badJson = await cli(['docs', 'create', 'post', '--data', '{title']);
    expect(badJson.code).toBe(65);
    expect(badJson.stderr).toMatch(/^vellum: --data is not valid JSON: .*\n$/);
    const twoSources = await cli(['docs', 'create', 'post', '-', '--data', '{}'], { input: '{}' });
    expect(twoSources.code).toBe(64);
    const badFilter = await cli(['docs', 'list', 'post', '--filter', 'nonsense']);
    expect(badFilter.code).toBe(64);
    expect(badFilter.stderr).toBe('vellum: --filter takes field=value or field[op]=value (got "nonsense")\n');
    const unknownFlag = await cli(['docs', 'list', 'post', '--nope']);
    expect(unknownFlag.code).toBe(64);
    expect(unknownFlag.stderr).toBe('vellum: unknown option --nope (see vellum docs list --help)\n');
    const missingArg = await cli(['docs', 'get', 'post']);
    expect(missingArg.code).toBe(64);
  });

  it('a server that does not answer is "cannot reach <url>" with exit 69', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/api`;
    const run = await cli(['docs', 'list', 'post'], { env: { VELLUM_URL: url } });
    expect(run.code).toBe(69);
    expect(run.stderr).toBe(`vellum: cannot reach ${url} (ECONNREFUSED)\n`);
  });

  it('vellum types writes the interfaces of the served schemas (stdout, or -o FILE); no token needed', async () => {
    const toStdout = await runCli(['types', '--url', baseUrl], { env: { VELLUM_CONFIG_DIR: configDir } });
    expect(toStdout.code, toStdout.stderr).toBe(0);
    expect(toStdout.stdout).toContain('export interface Post extends VellumSystemFields {');
    expect(toStdout.stdout).toContain('  category?: "news" | "guide" | "opinion";');
    const file = join(work, 'vellum-types.ts');
    const toFile = await cli(['types', '-o', file]);
    expect(toFile.code, toFile.stderr).toBe(0);
    expect(toFile.stderr).toBe(`wrote ${TEST_SCHEMAS.length} schema types to ${file}\n`);
    expect(readFileSync(file, 'utf8')).toBe(toStdout.stdout);
  });

  describe('profiles', () => {
    let nowhere: string;
    beforeAll(async () => {
      nowhere = `http://127.0.0.1:${await closedPort()}/api`;
    });

    /** No VELLUM_URL or VELLUM_TOKEN: only the stored profiles speak. */
    const bare = (args: string[], opts: { env?: Record<string, string>; input?: string } = {}) =>
      runCli(args, { env: { VELLUM_CONFIG_DIR: configDir, ...opts.env }, input: opts.input });

    it('config set-url and set-token store profiles in credentials.json (file 0600, folder 0700); the first becomes current', async () => {
      expect((await bare(['config', 'set-url', baseUrl, '--profile', 'local'])).code).toBe(0);
      const token = await bare(['config', 'set-token', '--profile', 'local'], { input: `${writer}\n` });
      expect(token.code, token.stderr).toBe(0);
      expect(token.stdout).not.toContain(writer);
      expect((await bare(['config', 'set-url', nowhere, '--profile', 'elsewhere'])).code).toBe(0);

      const file = join(configDir, 'credentials.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(configDir).mode & 0o777).toBe(0o700);
      const stored = JSON.parse(readFileSync(file, 'utf8'));
      expect(stored).toEqual({
        current: 'local',
        profiles: {
          local: { url: baseUrl, accessToken: writer, tokenType: 'api' },
          elsewhere: { url: nowhere },
        },
      });
    });

    it('config list marks the current profile and never prints a token', async () => {
      const run = await bare(['config', 'list']);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`  elsewhere  ${nowhere}  no credentials\n* local      ${baseUrl}  api token\n`);
      expect(run.stdout).not.toContain('vlm_');
      const asJson = await bare(['config', 'list', '--json']);
      expect(JSON.parse(asJson.stdout)).toEqual([
        { name: 'elsewhere', url: nowhere, current: false, credential: 'none', user: null },
        { name: 'local', url: baseUrl, current: true, credential: 'api token', user: null },
      ]);
      expect(asJson.stdout).not.toContain('vlm_');
    });

    it('commands use the current profile; --profile and VELLUM_PROFILE pick another; --url and VELLUM_TOKEN override it', async () => {
      const viaProfile = await bare(['docs', 'list', 'post', '--format', 'ndjson']);
      expect(viaProfile.code, viaProfile.stderr).toBe(0);
      expect(ndjson(viaProfile.stdout)).toHaveLength(2);

      const elsewhere = await bare(['docs', 'list', 'post', '--profile', 'elsewhere']);
      expect(elsewhere.code).toBe(69);
      expect(elsewhere.stderr).toContain(`cannot reach ${nowhere}`);
      expect((await bare(['docs', 'list', 'post'], { env: { VELLUM_PROFILE: 'elsewhere' } })).code).toBe(69);
      const urlWins = await bare(['docs', 'list', 'post', '--profile', 'elsewhere', '--url', baseUrl, '--token', writer]);
      expect(urlWins.code, urlWins.stderr).toBe(0);

      const badToken = await bare(['docs', 'list', 'post'], { env: { VELLUM_TOKEN: 'vlm_not-a-token' } });
      expect(badToken.code).toBe(77);
      expect(badToken.stderr).toMatch(/^vellum: 401 UNAUTHORIZED: /);
      const missing = await bare(['docs', 'list', 'post', '--profile', 'nope']);
      expect(missing.code).toBe(64);
      expect(missing.stderr).toBe('vellum: no profile "nope" (see vellum config list)\n');
    });

    it('config use switches the current profile; an unknown one is refused', async () => {
      expect((await bare(['config', 'use', 'elsewhere'])).code).toBe(0);
      expect((await bare(['config', 'list'])).stdout).toMatch(/^\* elsewhere /m);
      expect((await bare(['docs', 'list', 'post'])).code).toBe(69);
      const unknown = await bare(['config', 'use', 'nope']);
      expect(unknown.code).toBe(64);
      expect((await bare(['config', 'use', 'local'])).code).toBe(0);
    });
  });
});
