import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, ADMIN, type TestApp } from '../helpers/app.js';
import { assertCliBuilt, runCli } from '../helpers/cli.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

type Doc = Record<string, unknown> & { _id: string; _rev: number; _status: string };

/**
 * The editorial workflow from the command line (docs/cli.md, "Drafts, publishing and
 * schedules"): `--perspective` on reads, `--draft` on writes, publish, unpublish, discard, and
 * schedules, run as the built `vellum` against a listening server.
 */
describe('vellum docs: drafts, publishing and schedules', () => {
  let t: TestApp;
  let baseUrl: string;
  let editor: string;
  let writer: string;
  let configDir: string;

  const cli = (args: string[], opts: { token?: string; input?: string } = {}) =>
    runCli(args, { env: { VELLUM_URL: baseUrl, VELLUM_TOKEN: opts.token ?? editor, VELLUM_CONFIG_DIR: configDir }, input: opts.input });
  const ok = async <T>(args: string[], opts: { token?: string; input?: string } = {}): Promise<T> => {
    const run = await cli([...args, '--format', 'json'], opts);
    expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
    return JSON.parse(run.stdout) as T;
  };
  const apiToken = async (admin: string, permissions: string[]) => {
    const res = await t.request({
      method: 'POST',
      url: '/api/tokens',
      token: admin,
      payload: { name: permissions.join(' '), permissions },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.token as string;
  };
  const published = async (title: string, extra: Record<string, unknown> = {}) =>
    ok<Doc>(['docs', 'create', 'post', '--data', JSON.stringify({ title, _status: 'published', ...extra })]);
  const live = async (id: string) => (await t.request({ method: 'GET', url: `/api/documents/post/${id}` })).json().data as Doc;

  beforeAll(async () => {
    assertCliBuilt();
    configDir = join(mkdtempSync(join(tmpdir(), 'vellum-cli-workflow-')), 'vellum');
    t = await startTestApp({ schemas: TEST_SCHEMAS });
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.server.address() as AddressInfo).port}/api`;
    const admin = await t.login(ADMIN.username, ADMIN.password);
    editor = await apiToken(admin, ['content:read', 'content:write', 'content:publish', 'content:delete']);
    writer = await apiToken(admin, ['content:read', 'content:write']);
  });

  afterAll(async () => {
    await t?.close();
    rmSync(join(configDir, '..'), { recursive: true, force: true });
  });

  it('update --draft writes the pending draft: the live version is unchanged, --perspective drafts reads the draft', async () => {
    const doc = await published('Live title');
    // A writer may propose a change to a published page with --draft (docs/drafts.md).
    const draft = await ok<Doc>(['docs', 'update', 'post', doc._id, '--draft', '--data', '{"title":"Draft title"}'], { token: writer });
    expect(draft).toMatchObject({ _id: doc._id, title: 'Draft title', _version: 'draft', _status: 'published', _rev: 1 });
    expect((await live(doc._id)).title).toBe('Live title');

    const withoutDraft = await cli(['docs', 'update', 'post', doc._id, '--data', '{"title":"Direct"}'], { token: writer });
    expect(withoutDraft.code).toBe(77);
    expect(withoutDraft.stderr).toMatch(/^vellum: 403 FORBIDDEN: /);

    expect(await ok<Doc>(['docs', 'get', 'post', doc._id, '--perspective', 'drafts'])).toMatchObject({
      title: 'Draft title',
      _version: 'draft',
    });
    expect(await ok<Doc>(['docs', 'get', 'post', doc._id, '--perspective', 'published'])).toMatchObject({
      title: 'Live title',
      _version: 'main',
      _draft: { _rev: 1 },
    });
    const list = await ok<{ data: Doc[] }>(['docs', 'list', 'post', '--perspective', 'drafts', '--filter', 'title=Draft title']);
    expect(list.data.map((d) => d._id)).toEqual([doc._id]);
    const bad = await cli(['docs', 'list', 'post', '--perspective', 'preview']);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toBe('vellum: --perspective must be published or drafts (got "preview")\n');
  });

  it("replace --draft puts the whole draft; --if-match d<rev> compares the draft's revision", async () => {
    const doc = await published('Replace me', { price: 5 });
    const first = await ok<Doc>([
      'docs',
      'replace',
      'post',
      doc._id,
      '--draft',
      '--data',
      '{"title":"Replaced"}',
      '--if-match',
      String(doc._rev),
    ]);
    expect(first).toMatchObject({ title: 'Replaced', _version: 'draft', _rev: 1 });
    expect(first.price).toBeUndefined();
    const stale = await cli(['docs', 'replace', 'post', doc._id, '--draft', '--data', '{"title":"Again"}', '--if-match', 'd7']);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/^vellum: 412 PRECONDITION_FAILED/);
    const second = await ok<Doc>(['docs', 'update', 'post', doc._id, '--draft', '--data', '{"price":9}', '--if-match', 'd1']);
    expect(second).toMatchObject({ title: 'Replaced', price: 9, _rev: 2 });
    const badTag = await cli(['docs', 'update', 'post', doc._id, '--data', '{"price":1}', '--if-match', 'd1']);
    expect(badTag.code).toBe(64);
  });

  it('publish applies the draft; --dry-run prints the plan and changes nothing; --with-references publishes what it points at', async () => {
    const author = await ok<Doc>(['docs', 'create', 'author', '--data', '{"name":"Unpublished author"}']);
    const doc = await published('With author');
    await ok(['docs', 'update', 'post', doc._id, '--draft', '--data', JSON.stringify({ title: 'Now with author', author: author._id })]);

    const refused = await cli(['docs', 'publish', 'post', doc._id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`409 CONFLICT`);
    expect(refused.stderr).toContain(`author: references author ${author._id}, which is not published`);

    const plan = await ok<{ publish: unknown[]; blockedBy: unknown[] }>([
      'docs',
      'publish',
      'post',
      doc._id,
      '--with-references',
      '--dry-run',
    ]);
    expect(plan).toEqual({
      publish: [
        { type: 'post', id: doc._id },
        { type: 'author', id: author._id },
      ],
      blockedBy: [{ type: 'author', id: author._id, field: 'author' }],
    });
    const lines = await cli(['docs', 'publish', 'post', doc._id, '--dry-run', '--format', 'ndjson']);
    expect(lines.code, lines.stderr).toBe(0);
    expect(
      lines.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([{ blockedBy: { type: 'author', id: author._id, field: 'author' } }]);
    expect((await live(doc._id)).title).toBe('With author');

    const done = await ok<Doc>(['docs', 'publish', 'post', doc._id, '--with-references']);
    expect(done).toMatchObject({ title: 'Now with author', _status: 'published', _rev: doc._rev + 1 });
    expect((await live(doc._id)).title).toBe('Now with author');
    expect((await ok<Doc>(['docs', 'get', 'author', author._id]))._status).toBe('published');
  });

  it('publish --force publishes a stale draft; without it the stale draft is refused', async () => {
    const doc = await published('Stale');
    await ok(['docs', 'update', 'post', doc._id, '--draft', '--data', '{"title":"Stale draft"}']);
    await ok(['docs', 'update', 'post', doc._id, '--data', '{"price":3}']);
    const refused = await cli(['docs', 'publish', 'post', doc._id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^vellum: 409 CONFLICT: .*\(_rev: /);
    expect(await ok<Doc>(['docs', 'publish', 'post', doc._id, '--force'])).toMatchObject({ title: 'Stale draft', _status: 'published' });
  });

  it('discard drops the pending draft (404 when there is none); unpublish turns the document into a draft', async () => {
    const doc = await published('Keep');
    await ok(['docs', 'update', 'post', doc._id, '--draft', '--data', '{"title":"Throw away"}']);
    const discarded = await cli(['docs', 'discard', 'post', doc._id]);
    expect(discarded.code, discarded.stderr).toBe(0);
    expect(discarded.stdout).toBe('');
    expect(discarded.stderr).toBe(`discarded the draft of post ${doc._id}\n`);
    expect(await ok<Doc>(['docs', 'get', 'post', doc._id, '--perspective', 'drafts'])).toMatchObject({ title: 'Keep', _version: 'main' });
    const again = await cli(['docs', 'discard', 'post', doc._id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^vellum: 404 NOT_FOUND/);

    const unpublished = await ok<Doc>(['docs', 'unpublish', 'post', doc._id]);
    expect(unpublished).toMatchObject({ _status: 'draft', title: 'Keep', _rev: doc._rev + 1 });
    const byWriter = await cli(['docs', 'unpublish', 'post', doc._id], { token: writer });
    expect(byWriter.code).toBe(77);
  });

  it('schedule plans a publish, schedules lists it (filtered), unschedule cancels it', async () => {
    const doc = await ok<Doc>(['docs', 'create', 'post', '--data', '{"title":"Planned"}']);
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const s = await ok<Record<string, unknown>>(['docs', 'schedule', 'post', doc._id, '--action', 'publish', '--at', at]);
    expect(s).toMatchObject({ type: 'post', documentId: doc._id, action: 'publish', at, status: 'pending' });

    const listed = await ok<{ data: Array<Record<string, unknown>>; meta: { total: number } }>([
      'docs',
      'schedules',
      '--type',
      'post',
      '--document',
      doc._id,
      '--status',
      'pending',
    ]);
    expect(listed.data.map((x) => x.id)).toEqual([s.id]);
    expect(listed.meta.total).toBe(1);

    const table = await runCli(['docs', 'schedules', '--document', doc._id, '--format', 'table'], {
      env: { VELLUM_URL: baseUrl, VELLUM_TOKEN: editor, VELLUM_CONFIG_DIR: configDir },
    });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^id\s+type\s+documentId\s+action\s+at\s+status/);
    expect(table.stdout).toContain(`${s.id as string}  post`);
    expect(table.stdout.trimEnd().endsWith('(1–1 of 1)')).toBe(true);

    const cancelled = await cli(['docs', 'unschedule', s.id as string]);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stderr).toBe(`cancelled schedule ${s.id as string}\n`);
    const after = await ok<{ data: Array<Record<string, unknown>> }>(['docs', 'schedules', '--document', doc._id]);
    expect(after.data[0]).toMatchObject({ id: s.id, status: 'cancelled' });
    const twice = await cli(['docs', 'unschedule', s.id as string]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/^vellum: 409 CONFLICT/);
  });

  it("schedule checks its options before calling the server, and passes the server's refusal of a past instant", async () => {
    const doc = await ok<Doc>(['docs', 'create', 'post', '--data', '{"title":"Not planned"}']);
    const noAction = await cli(['docs', 'schedule', 'post', doc._id, '--at', '2030-01-01T00:00:00Z']);
    expect([noAction.code, noAction.stderr]).toEqual([64, 'vellum: --action is required: publish or unpublish\n']);
    const noAt = await cli(['docs', 'schedule', 'post', doc._id, '--action', 'unpublish']);
    expect(noAt.code).toBe(64);
    const badStatus = await cli(['docs', 'schedules', '--status', 'soon']);
    expect(badStatus.code).toBe(64);
    const past = await cli(['docs', 'schedule', 'post', doc._id, '--action', 'publish', '--at', '2001-01-01T00:00:00Z']);
    expect(past.code).toBe(1);
    expect(past.stderr).toMatch(/^vellum: 422 VALIDATION_ERROR: .*\(at: /);
  });
});
