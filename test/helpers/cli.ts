import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The built entry point: the CLI tests run the real `vellum` binary as a child process. */
export const CLI = join(ROOT, 'packages/cli/dist/bin.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Environment variables of the caller that would change what the CLI does: never inherited. */
const CLI_ENV = [
  'VELLUM_TOKEN',
  'VELLUM_URL',
  'VELLUM_PROFILE',
  'VELLUM_CONFIG_DIR',
  'XDG_CONFIG_HOME',
  'VELLUM_CONFIG',
  'DATABASE_URL',
  'COLUMNS',
];

/** Runs `vellum args…` with `env` on top of a clean environment, feeding `input` on stdin. */
export function runCli(args: string[], opts: { env?: Record<string, string>; input?: string; cwd?: string } = {}): Promise<CliRun> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !CLI_ENV.includes(k)));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd ?? ROOT, env: { ...inherited, ...opts.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}

/** The CLI runs from dist/: a test against stale output would test old code. */
export function assertCliBuilt(): void {
  for (const pkg of ['cli', 'client']) walk(join(ROOT, 'packages', pkg, 'src'), join(ROOT, 'packages', pkg, 'dist'));
}

function walk(src: string, dist: string): void {
  for (const entry of readdirSync(src, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      walk(join(src, entry.name), join(dist, entry.name));
      continue;
    }
    if (!entry.name.endsWith('.ts')) continue;
    let builtAt = 0;
    try {
      builtAt = statSync(join(dist, entry.name.replace(/\.ts$/, '.js'))).mtimeMs;
    } catch {
      // Not built at all: reported below.
    }
    if (builtAt < statSync(join(src, entry.name)).mtimeMs) throw new Error(`${dist} is stale (${entry.name}): run \`npm run build\` first`);
  }
}
