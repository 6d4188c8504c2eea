import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { PG_ADMIN_URL } from '../helpers/database.js';
import { startMailCatcher, type MailCatcher } from '../helpers/mail-catcher.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

/**
 * `vellum doctor` (docs/operations.md, "Doctor"): one line per check, exit 0 when every configured
 * part answers and 1 when one does not; against real parts (SQLite, PostgreSQL, a redis-server,
 * an SMTP server) and ones that are not there.
 */
let redis: RedisServer;
let mail: MailCatcher;
const dirs: string[] = [];
beforeAll(async () => {
  redis = await startRedisServer();
  mail = await startMailCatcher();
});
afterAll(async () => {
  await redis?.close();
  await mail?.close();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

function project(config: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'vellum-doctor-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'vellum.config.json'), JSON.stringify(config));
  return dir;
}

const lineOf = (stdout: string, check: string) => stdout.split('\n').find((l) => l.slice(2).startsWith(`${check} `)) ?? '';

describe('vellum doctor', () => {
  it('a SQLite node with everything it uses answering: every line ✓ (or - when not configured), exit 0', async () => {
    const run = await runCli(['doctor'], { cwd: project({ redis: { url: redis.url }, mail: { smtpUrl: mail.url } }) });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(
      run.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(/\s+/).slice(0, 2).join(' ')),
    ).toEqual(['✓ config', '✓ database', '✓ clock', '✓ redis', '✓ storage', '✓ smtp', '✓ disk']);
    expect(lineOf(run.stdout, 'database')).toMatch(/SQLite at .*vellum\.db: reachable; \d+ migrations applied, \d+ pending/);
    expect(lineOf(run.stdout, 'storage')).toMatch(/media writable$/);
    expect(lineOf(run.stdout, 'disk')).toMatch(/GiB free/);
  });

  it('parts that do not answer fail their own line, and the exit is 1; what is not configured is "-"', async () => {
    const run = await runCli(['doctor'], {
      cwd: project({ redis: { url: 'redis://127.0.0.1:1' }, mail: { smtpUrl: 'smtp://127.0.0.1:1' } }),
    });
    expect(run.code).toBe(1);
    expect(lineOf(run.stdout, 'redis')).toMatch(/^✗ redis\s+Redis is not reachable \(.*ECONNREFUSED/);
    expect(lineOf(run.stdout, 'smtp')).toMatch(/^✗ smtp\s+.*ECONNREFUSED/);
    expect(lineOf(run.stdout, 'database')).toMatch(/^✓/);

    const bare = await runCli(['doctor', '--json'], { cwd: project() });
    expect(bare.code).toBe(0);
    const checks = JSON.parse(bare.stdout) as Array<{ check: string; status: string }>;
    expect(checks.filter((c) => c.status === 'skipped').map((c) => c.check)).toEqual(['redis', 'smtp']);
  });

  it('PostgreSQL: reachable, the clock compared with the database’s; one that does not answer fails database and skips clock', async () => {
    const pg = await runCli(['doctor'], { cwd: project(), env: { DATABASE_URL: PG_ADMIN_URL } });
    expect(lineOf(pg.stdout, 'database')).toMatch(/^✓ database\s+PostgreSQL at postgres:\/\/.*: reachable/);
    expect(lineOf(pg.stdout, 'clock')).toMatch(/^✓ clock\s+\d+ ms from the database's clock$/);

    const gone = await runCli(['doctor'], {
      cwd: project({ database: { connectTimeoutMs: 1000 } }),
      env: { DATABASE_URL: 'postgres://postgres:secret-pw@127.0.0.1:1/none' },
    });
    expect(gone.code).toBe(1);
    expect(lineOf(gone.stdout, 'database')).toMatch(/^✗ database\s+PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/none: /);
    expect(gone.stdout).not.toContain('secret-pw');
    expect(lineOf(gone.stdout, 'clock')).toMatch(/^- clock/);
  });

  it('a configuration with problems is one failed check, exit 1', async () => {
    const run = await runCli(['doctor'], { cwd: project({ server: { port: 'eighty' } }) });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^✗ config\s+server\.port: /);
  });
});
