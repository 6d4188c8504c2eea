import { randomBytes } from 'node:crypto';
import { mkdirSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { VellumConfig } from './config/types.js';
import { verifyMailServer } from './mail/mailer.js';
import { mediaStorage, openFileStore } from './media/storage/open-file-store.js';
import { databaseNow } from './storage/database-clock.js';
import { openDatabase, sqlitePath } from './storage/database.js';
import { pendingMigrations } from './storage/migrations/index.js';
import { ping } from './storage/ping.js';
import { pingRedis } from './storage/redis-connection.js';

/** One line of `vellum doctor` (docs/operations.md, "Doctor"). */
export interface DoctorCheck {
  check: 'config' | 'database' | 'clock' | 'redis' | 'storage' | 'smtp' | 'disk';
  /** `skipped`: the part is not configured. */
  status: 'ok' | 'failed' | 'skipped';
  detail: string;
}

/** Skew between this machine and the database above which schedules, tokens and claims go wrong. */
const MAX_SKEW_MS = 2_000;
/** Free space under which a data directory is reported as failing. */
const MIN_FREE_BYTES = 512 * 1024 * 1024;

/**
 * Checks what a node needs, each on its own, with nothing started (docs/operations.md, "Doctor"):
 * the database (reachable, migrations), the clock against the database's, Redis, the file store
 * (a probe object written, read and removed), the SMTP server (a handshake, nothing sent) and the
 * free space of the local data directories. The config was loaded by the caller.
 */
export async function runDoctor(config: VellumConfig): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [{ check: 'config', status: 'ok', detail: 'valid' }];
  const sqlite = config.database.url.startsWith('sqlite:');
  checks.push(...(await databaseChecks(config, sqlite)));
  checks.push(
    config.redis
      ? await attempt('redis', async () => (await pingRedis(config.redis!.url), `answers at ${redacted(config.redis!.url)}`))
      : { check: 'redis', status: 'skipped', detail: 'not configured (one node: rate limits and events stay in this process)' },
  );
  checks.push(await attempt('storage', () => storageCheck(config)));
  checks.push(
    config.mail?.smtpUrl
      ? await attempt(
          'smtp',
          async () => (await verifyMailServer(config.mail!.smtpUrl!), `handshake with ${redacted(config.mail!.smtpUrl!)}`),
        )
      : { check: 'smtp', status: 'skipped', detail: 'not configured (invitations, resets and mailed codes are off)' },
  );
  checks.push(diskCheck(config, sqlite));
  return checks;
}

async function databaseChecks(config: VellumConfig, sqlite: boolean): Promise<DoctorCheck[]> {
  const where = sqlite ? `SQLite at ${sqlitePath(config.database.url)}` : `PostgreSQL at ${redacted(config.database.url)}`;
  let database;
  try {
    database = await openDatabase(config.database.url, config.database);
    await ping(database);
  } catch (err) {
    await database?.close().catch(() => undefined);
    return [
      { check: 'database', status: 'failed', detail: `${where}: ${rootMessage(err)}` },
      { check: 'clock', status: 'skipped', detail: 'the database did not answer' },
    ];
  }
  try {
    const reachable = await attempt('database', async () => {
      const { applied, pending } = await pendingMigrations(database);
      const state =
        pending.length === 0 ? 'none pending' : `${pending.length} pending (vellum migrate, or the next vellum serve, applies them)`;
      return `${where}: reachable; ${applied} migrations applied, ${state}`;
    });
    const clock = await attempt('clock', async () => {
      const before = Date.now();
      const theirs = (await databaseNow(database)).getTime();
      const mine = (before + Date.now()) / 2;
      // SQLite's clock is this machine's, to the second.
      if (sqlite) return 'the database runs in this process (same clock)';
      const skew = theirs - mine;
      if (Math.abs(skew) > MAX_SKEW_MS)
        throw new Error(`this machine is ${Math.round(-skew)} ms off the database's clock (at most ${MAX_SKEW_MS})`);
      return `${Math.round(Math.abs(skew))} ms from the database's clock`;
    });
    return [reachable, clock];
  } finally {
    await database.close();
  }
}

async function storageCheck(config: VellumConfig): Promise<string> {
  const target = mediaStorage(config.media);
  const files = await openFileStore(target);
  const key = `vellum-doctor-${randomBytes(6).toString('hex')}.txt`;
  try {
    await files.put(key, Buffer.from('vellum doctor'), 'text/plain');
    const back = await files.get(key);
    if (!back) throw new Error('a file written could not be read back');
    back.body.resume();
    await files.delete([key]);
  } finally {
    await files.close();
  }
  return target.storage === 's3' ? `S3 bucket ${target.s3.bucket} writable` : `${target.dir} writable`;
}

function diskCheck(config: VellumConfig, sqlite: boolean): DoctorCheck {
  const dirs = new Set<string>();
  if (sqlite && sqlitePath(config.database.url) !== ':memory:') dirs.add(dirname(sqlitePath(config.database.url)));
  const media = mediaStorage(config.media);
  if (media.storage === 'local') dirs.add(media.dir);
  if (dirs.size === 0) return { check: 'disk', status: 'skipped', detail: 'no local data (PostgreSQL and S3)' };
  const parts: string[] = [];
  let low = false;
  for (const dir of dirs) {
    mkdirSync(dir, { recursive: true });
    const fs = statfsSync(dir);
    const free = fs.bavail * fs.bsize;
    low ||= free < MIN_FREE_BYTES;
    parts.push(`${dir}: ${(free / 1024 ** 3).toFixed(1)} GiB free`);
  }
  return {
    check: 'disk',
    status: low ? 'failed' : 'ok',
    detail: parts.join('; ') + (low ? ` (under ${MIN_FREE_BYTES / 1024 ** 2} MiB)` : ''),
  };
}

async function attempt(check: DoctorCheck['check'], run: () => Promise<string>): Promise<DoctorCheck> {
  try {
    return { check, status: 'ok', detail: await run() };
  } catch (err) {
    return { check, status: 'failed', detail: rootMessage(err) };
  }
}

/** The innermost cause says what failed (`connect ECONNREFUSED 127.0.0.1:6390`). */
function rootMessage(err: unknown): string {
  let e = err as Error;
  while (e.cause instanceof Error) e = e.cause;
  const outer = (err as Error).message;
  return e !== err && e.message !== outer ? `${outer} (${e.message})` : outer || String(err);
}

/** A URL without its password, for a line an operator may paste into a ticket. */
function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}
