import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpeg, pdf } from '../helpers/media-fixtures.js';

/**
 * The shell examples of README.md and docs/*.md run as written, so they cannot drift from the
 * code. The rules:
 * - Every fenced block tagged `sh`, `bash` or `shell` is an example. The examples of one file run
 *   in order in one bash (`set -euo pipefail`), as a reader would type them into one terminal.
 * - A block directly after a line `<!-- example: skip (why) -->` is not run (installing, starting
 *   a server, usage synopses). A skipped block, or a block of another language, must not call curl.
 * - The server is the built `vellum serve`, started in an empty directory with the README's sample
 *   configuration (its JSON block with `schemas`) as `vellum.config.json`; `localhost:3000` in
 *   the examples becomes that server's address. The directory holds `photo.jpg` and `./photos`,
 *   `report.pdf` for the upload examples.
 * - `curl` runs with `--fail-with-body` (a 4xx/5xx fails the script) and every call is counted:
 *   the count must equal the number of `curl` commands in the examples, so none is left unrun.
 *   `npx vellum` runs the repository's CLI; any other `npx` fails.
 */

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'packages/cli/bin/vellum.js');
const SKIP = /^<!--\s*example:\s*skip\b.*-->$/;
const SHELL = new Set(['sh', 'bash', 'shell']);
const CURL = /(^|[\s;|&(])curl\s/gm;

interface Block {
  file: string;
  line: number;
  lang: string;
  code: string;
  skipped: boolean;
}

/** Fenced code blocks of a Markdown file, with the skip marker of the line before each. */
function blocks(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && !/^```\s*$/.test(lines[i])) body.push(lines[i]);
    let before = start - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    out.push({ file, line: start + 1, lang: open[1], code: body.join('\n'), skipped: before >= 0 && SKIP.test(lines[before].trim()) });
  }
  return out;
}

const FILES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const ALL = FILES.flatMap(blocks);
const examples = (file: string) => ALL.filter((b) => b.file === file && SHELL.has(b.lang) && !b.skipped);
const curlCount = (code: string) => code.match(CURL)?.length ?? 0;

/** The README's sample configuration: its JSON block that defines schemas. */
function sampleConfig(): Record<string, unknown> {
  const block = ALL.find((b) => b.file === 'README.md' && b.lang === 'json' && b.code.includes('"schemas"'));
  if (!block) throw new Error('README.md has no sample configuration (a json block with "schemas")');
  return JSON.parse(block.code) as Record<string, unknown>;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.on('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

function run(command: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; input?: string }) {
  return new Promise<{ code: number | null; output: string }>((done, fail) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', fail);
    child.on('exit', (code) => done({ code, output }));
    child.stdin.end(opts.input ?? '');
  });
}

let cwd: string;
let port: number;
let server: ChildProcess | undefined;
let serverOutput = '';
const env = () => ({ PATH: process.env.PATH, HOME: cwd, LANG: 'C.UTF-8' });

beforeAll(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'vellum-readme-'));
  writeFileSync(join(cwd, 'vellum.config.json'), JSON.stringify(sampleConfig(), null, 2));
  writeFileSync(join(cwd, 'photo.jpg'), await jpeg(64, 48));
  mkdirSync(join(cwd, 'photos'));
  writeFileSync(join(cwd, 'photos', 'beach.jpg'), await jpeg(80, 60));
  writeFileSync(join(cwd, 'report.pdf'), pdf());
  port = await freePort();
  server = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--host', '127.0.0.1'], { cwd, env: env() });
  await new Promise<void>((ready, fail) => {
    const onData = (d: Buffer) => {
      serverOutput += d;
      if (serverOutput.includes('Vellum is running')) ready();
    };
    server!.stdout!.on('data', onData);
    server!.stderr!.on('data', onData);
    server!.on('exit', (code) => fail(new Error(`vellum serve exited with ${code}:\n${serverOutput}`)));
  });
}, 60_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(cwd, { recursive: true, force: true });
});

describe('README and docs examples', () => {
  it('every block that calls curl is a shell example that runs', () => {
    const dodging = ALL.filter((b) => curlCount(b.code) > 0 && (b.skipped || !SHELL.has(b.lang)));
    expect(dodging.map((b) => `${b.file}:${b.line}`)).toEqual([]);
    expect(examples('README.md').length).toBeGreaterThan(0);
  });

  it.each(FILES.filter((f) => examples(f).length > 0))(
    'the shell examples of %s run as written',
    async (file) => {
      const log = join(cwd, `curl-calls-${file.replaceAll('/', '_')}.log`);
      writeFileSync(log, '');
      const script = [
        'set -euo pipefail',
        `curl() { echo call >> ${JSON.stringify(log)}; command curl --fail-with-body "$@"; }`,
        `npx() { if [ "$1" = vellum ]; then shift; node ${JSON.stringify(BIN)} "$@"; else echo "npx $1: not available to examples" >&2; return 127; fi; }`,
        ...examples(file).map((b) => `# ${b.file}:${b.line}\n${b.code.replaceAll('localhost:3000', `127.0.0.1:${port}`)}`),
      ].join('\n');
      const { code, output } = await run('bash', ['-c', script], { cwd, env: env() });
      expect(code, `${output}\n--- script ---\n${script}`).toBe(0);
      const calls = readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
      expect(calls).toBe(examples(file).reduce((n, b) => n + curlCount(b.code), 0));
    },
    60_000,
  );
});
