import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VellumClient, type Media } from '../../packages/client/src/node.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { htmlAsPng, jpeg, pdf, png } from '../helpers/media-fixtures.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'packages/cli/dist/bin.js');

interface FileLine {
  file: string;
  status: 'uploaded' | 'skipped' | 'failed';
  id?: string;
  error?: string;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The CLI runs from dist/: a test against stale output would test old code. */
function assertBuilt(): void {
  for (const pkg of ['cli', 'client']) {
    const src = join(ROOT, 'packages', pkg, 'src');
    for (const name of readdirSync(src).filter((n) => n.endsWith('.ts'))) {
      const built = join(ROOT, 'packages', pkg, 'dist', name.replace(/\.ts$/, '.js'));
      let builtAt = 0;
      try {
        builtAt = statSync(built).mtimeMs;
      } catch {
        // Not built at all: reported below.
      }
      if (builtAt < statSync(join(src, name)).mtimeMs)
        throw new Error(`packages/${pkg}/dist is stale (${name}): run \`npm run build\` first`);
    }
  }
}

function runCli(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const { VELLUM_TOKEN: _token, VELLUM_URL: _url, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd, env: { ...inherited, ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const jsonLines = (stdout: string): FileLine[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as FileLine);

describe('vellum media upload', () => {
  let t: TestApp;
  let admin: string;
  let baseUrl: string;
  let mediaDir: string;
  let work: string;
  const files: Record<string, Buffer> = {};

  const write = (name: string, data: Buffer) => {
    mkdirSync(dirname(join(work, name)), { recursive: true });
    writeFileSync(join(work, name), data);
    files[name] = data;
  };
  const cli = (args: string[], env?: Record<string, string>) =>
    runCli(['media', 'upload', ...args, '--url', baseUrl, '--token', admin], work, env);
  const total = async () => (await t.request({ method: 'GET', url: '/api/media?limit=1', token: admin })).json().meta.total as number;
  const bySha = async (hex: string): Promise<Media[]> =>
    (await t.request({ method: 'GET', url: `/api/media?sha256=${hex}`, token: admin })).json().data;

  beforeAll(async () => {
    assertBuilt();
    mediaDir = mkdtempSync(join(tmpdir(), 'vellum-cli-media-'));
    work = mkdtempSync(join(tmpdir(), 'vellum-cli-files-'));
    t = await startTestApp({ media: { dir: mediaDir } });
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.server.address() as AddressInfo).port}/api`;
    admin = await t.login(ADMIN.username, ADMIN.password);

    write('a.png', await png(64, 48));
    write('b.jpg', await jpeg(80, 60));
    write('doc.pdf', pdf());
    write('evil.png', htmlAsPng());
    write('album/x.png', await png(30, 20, { r: 10, g: 20, b: 30 }));
    write('album/nested/y.png', await png(31, 21, { r: 200, g: 20, b: 30 }));
    write('album/.hidden.png', await png(32, 22));
    write('album/.git/z.png', await png(33, 23));
  });

  afterAll(async () => {
    await t?.close();
    rmSync(mediaDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  const ARGS = ['a.png', 'b.jpg', 'doc.pdf', 'evil.png', 'album'];
  const UPLOADABLE = ['a.png', 'b.jpg', 'doc.pdf', 'album/x.png', 'album/nested/y.png'];
  const ids: Record<string, string> = {};

  it('uploads files and walks directories (skipping dotfiles); the HTML named .png fails with 415 and exit code 1', async () => {
    const run = await cli([...ARGS, '--json', '--concurrency', '3']);
    expect(run.code, run.stderr).toBe(1);
    const lines = jsonLines(run.stdout);
    expect(lines.map((l) => l.file).sort()).toEqual([...UPLOADABLE, 'evil.png'].sort());

    const evil = lines.find((l) => l.file === 'evil.png');
    expect(evil).toMatchObject({ status: 'failed' });
    expect(evil?.error).toMatch(/^415 UNSUPPORTED_MEDIA_TYPE/);
    expect(evil?.id).toBeUndefined();

    for (const file of UPLOADABLE) {
      const line = lines.find((l) => l.file === file);
      expect(line, file).toMatchObject({ status: 'uploaded', id: expect.any(String) });
      const records = await bySha(sha256(files[file]));
      expect(records.map((r) => r._id)).toEqual([line?.id]);
      ids[file] = line!.id!;
    }
    expect(await total()).toBe(UPLOADABLE.length);
    expect(await bySha(sha256(files['album/.hidden.png']))).toEqual([]);
    expect(await bySha(sha256(files['album/.git/z.png']))).toEqual([]);
  });

  it('skips every file uploaded before on a re-run, creating no records', async () => {
    const run = await cli([...ARGS, '--json']);
    expect(run.code).toBe(1);
    const lines = jsonLines(run.stdout);
    for (const file of UPLOADABLE) expect(lines.find((l) => l.file === file)).toEqual({ file, status: 'skipped', id: ids[file] });
    expect(lines.find((l) => l.file === 'evil.png')?.status).toBe('failed');
    expect(await total()).toBe(UPLOADABLE.length);
  });

  it('without --json: one line per file on stderr (not a TTY) and the summary on stdout; exit 0 when nothing failed', async () => {
    write('new.png', await png(40, 40, { r: 1, g: 2, b: 3 }));
    const run = await cli(['new.png', 'a.png', '--alt', 'A green square', '--title', 'Square']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('1 uploaded, 1 skipped, 0 failed\n');
    expect(run.stderr).toContain(`skipped a.png (already uploaded as ${ids['a.png']})`);
    const [created] = await bySha(sha256(files['new.png']));
    expect(run.stderr).toContain(`uploaded new.png → ${created._id}`);
    expect(created).toMatchObject({ alt: 'A green square', title: 'Square', originalFilename: 'new.png' });
  });

  it('uploads identical files in one run once', async () => {
    const same = await png(50, 10, { r: 9, g: 9, b: 9 });
    write('twins/one.png', same);
    write('twins/two.png', same);
    const run = await cli(['twins', '--json']);
    expect(run.code).toBe(0);
    expect(
      jsonLines(run.stdout)
        .map((l) => l.status)
        .sort(),
    ).toEqual(['skipped', 'uploaded']);
    expect(await bySha(sha256(same))).toHaveLength(1);
  });

  it('prints the failure line for a missing file, and exits 77 without a token', async () => {
    const missing = await cli(['nope.png']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('failed nope.png: no such file or directory');
    expect(missing.stdout).toBe('0 uploaded, 0 skipped, 1 failed\n');

    const noToken = await runCli(['media', 'upload', 'a.png', '--url', baseUrl], work);
    expect(noToken.code).toBe(77);
    expect(noToken.stderr).toMatch(/no API token.*VELLUM_TOKEN/);
  });

  it('stops at a refused token (401) with exit 77', async () => {
    const run = await runCli(['media', 'upload', 'a.png', 'b.jpg', '--url', baseUrl, '--json', '--concurrency', '1'], work, {
      VELLUM_TOKEN: 'not-a-token',
    });
    expect(run.code).toBe(77);
    const lines = jsonLines(run.stdout);
    expect(lines.map((l) => l.status)).toEqual(['failed', 'failed']);
    expect(lines[0].error).toMatch(/^401 /);
    expect(lines[1].error).toMatch(/^not attempted: 401 /);
  });

  it('a failure every file shares is said once, on the last line: no server answers → exit 69', async () => {
    const run = await runCli(['media', 'upload', 'a.png', 'b.jpg', '--url', 'http://127.0.0.1:39999/api', '--concurrency', '1'], work, {
      VELLUM_TOKEN: 'vlm_any',
    });
    expect(run.code).toBe(69);
    expect(run.stdout).toBe('0 uploaded, 0 skipped, 2 failed\n');
    expect(run.stderr).toBe('vellum: stopped: cannot reach http://127.0.0.1:39999/api (ECONNREFUSED)\n');
  });

  /** A chunk reader over bytes, 4 KiB a chunk, as `@vellum/client/node` reads a file. */
  const blobReader = (bytes: Uint8Array) => {
    let at = 0;
    return {
      next: async () => (at < bytes.length ? bytes.subarray(at, (at += 4096)) : undefined),
      close: async () => undefined,
    };
  };

  describe('client uploadMedia', () => {
    it('streams a multipart body of the announced length, reporting progress up to it', async () => {
      const sent: { length?: number; header?: string; body?: Buffer } = {};
      // Reads the body the client produces, then forwards it: the recorded bytes are exactly what went out.
      const recordingFetch: typeof fetch = async (input, init) => {
        const chunks: Buffer[] = [];
        for await (const chunk of init!.body as ReadableStream<Uint8Array>) chunks.push(Buffer.from(chunk));
        sent.body = Buffer.concat(chunks);
        sent.header = new Headers(init!.headers).get('content-length') ?? undefined;
        return fetch(input, { ...init, body: sent.body, duplex: undefined });
      };
      const client = new VellumClient({ baseUrl, token: admin, fetch: recordingFetch });
      const image = await png(120, 90, { r: 5, g: 80, b: 200 });
      const calls: Array<[number, number]> = [];
      const name = 'Straße "quoted"\r\nnext.png';
      // An UploadSource is streamed (a Blob goes as a Blob: test/http/client-blob-upload.test.ts).
      const source = { name: 'source.png', size: image.length, type: 'image/png', open: async () => blobReader(image) };
      const media = await client.uploadMedia(source, {
        filename: name,
        alt: 'Blue',
        onProgress: (s, n) => calls.push([s, n]),
      });

      expect(calls.length).toBeGreaterThan(1);
      const [lastSent, lastTotal] = calls[calls.length - 1];
      expect(lastSent).toBe(lastTotal);
      expect(lastTotal).toBe(sent.body!.length);
      expect(Number(sent.header)).toBe(sent.body!.length);
      for (let i = 1; i < calls.length; i++) expect(calls[i][0]).toBeGreaterThan(calls[i - 1][0]);

      const head = sent.body!.subarray(0, 400).toString('utf8');
      expect(head).toContain(`filename="Straße _quoted___next.png"; filename*=UTF-8''Stra%C3%9Fe%20%22quoted%22%0D%0Anext.png\r\n`);
      expect(media).toMatchObject({ sha256: sha256(image), mimeType: 'image/png', alt: 'Blue', width: 120, height: 90 });
      // The server's parser (busboy) reads the quoted name: its UTF-8 survives, the quote and CR LF arrive as `_`.
      expect(media.originalFilename).toBe('Straße _quoted___next.png');
    });

    it('uploads a 3 MB file from a path with the right sha256', async () => {
      const path = join(work, 'big.txt');
      const bytes = Buffer.from(randomBytes(1_500_000).toString('hex'));
      writeFileSync(path, bytes);
      const client = new VellumClient({ baseUrl, token: admin });
      let last: [number, number] = [0, 0];
      const media = await client.uploadMedia(path, { onProgress: (s, n) => (last = [s, n]) });
      expect(media).toMatchObject({ sha256: sha256(bytes), size: 3_000_000, originalFilename: 'big.txt' });
      expect(last[0]).toBe(last[1]);
      expect(last[1]).toBeGreaterThan(3_000_000);
      expect((await client.findMediaBySha256(sha256(bytes).toUpperCase()))?._id).toBe(media._id);
      expect(readFileSync(join(mediaDir, media.filename)).equals(bytes)).toBe(true);
    });

    it('turns error responses into VellumApiError', async () => {
      const client = new VellumClient({ baseUrl, token: admin });
      await expect(client.uploadMedia(new Blob([htmlAsPng()]), { filename: 'x.png' })).rejects.toMatchObject({
        status: 415,
        error: { code: 'UNSUPPORTED_MEDIA_TYPE' },
      });
      await expect(client.getMedia('missing')).rejects.toMatchObject({ status: 404 });
    });
  });
});
