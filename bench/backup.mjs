// `npm run bench:backup [-- --n 100000]`: the time `vellum backup` and `vellum restore` take for N
// posts (docs/backup.md), across engines: seeded on SQLite by the bulk insert, backed up, restored
// into a new PostgreSQL database, backed up from there and restored into a new SQLite file. The
// posts are the benchmark's own (bench/setup.mjs): a title, slug, markdown body, category, price
// and an author reference each. Needs the PostgreSQL of the test suites (VELLUM_TEST_PG_URL).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { ADMIN, writeConfig } from './setup.mjs';
import { seedBulk } from './seed-bulk.mjs';
import { createLog } from './lib.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'packages/cli/dist/bin.js');
const PG_ADMIN_URL = process.env.VELLUM_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const log = createLog('backup');
const { values } = parseArgs({ options: { n: { type: 'string', default: '100000' } } });
const n = Number(values.n);

const tmp = mkdtempSync(join(tmpdir(), 'vellum-bench-backup-'));
const configFile = writeConfig(tmp, 'vellum.config.json', {});
const databases = [];

async function newPgDatabase() {
  const name = `vellum_bench_${Date.now().toString(36)}_${databases.length}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  databases.push(name);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs the CLI with the bench's config on `databaseUrl`; answers its wall time in seconds. */
async function timed(args, databaseUrl) {
  const t0 = performance.now();
  await promisify(execFile)(process.execPath, [CLI, ...args, '--config', configFile], {
    cwd: tmp,
    env: { ...process.env, DATABASE_URL: databaseUrl, VELLUM_BACKUP_PASSPHRASE: 'bench passphrase 1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return (performance.now() - t0) / 1000;
}

/** The admin's id and ten authors, on a new database at `url`. */
async function prepare(url) {
  const { createApp, resolveConfig, bulkInsertDocuments } = await import(join(ROOT, 'packages/server/dist/index.js'));
  const { readFileSync } = await import('node:fs');
  const app = await createApp(resolveConfig(JSON.parse(readFileSync(configFile, 'utf8')), { ...process.env, DATABASE_URL: url }));
  try {
    const login = await app.server.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: ADMIN.username, password: ADMIN.password },
    });
    const adminId = JSON.parse(login.body).data.user.id;
    const authors = Array.from({ length: 10 }, (_, i) => ({ _id: `author-${i}`, name: `Author ${i}`, _status: 'published' }));
    await bulkInsertDocuments(app.services, { type: 'author', documents: authors });
    return { adminId, authorIds: authors.map((a) => a._id) };
  } finally {
    await app.close();
  }
}

try {
  const sqliteSource = `sqlite:${join(tmp, 'source.db')}`;
  const { adminId, authorIds } = await prepare(sqliteSource);
  const seeded = await seedBulk({ configFile, env: { DATABASE_URL: sqliteSource }, n, authorIds, adminId, log });
  log(`seeded ${n} posts on SQLite in ${seeded.seconds.toFixed(1)} s`);

  const rows = [];
  const step = async (what, args, url, file) => {
    const seconds = await timed(args, url);
    const size = file ? statSync(file).size : undefined;
    rows.push({ what, seconds, size });
    log(`${what}: ${seconds.toFixed(1)} s${size ? `, ${(size / 1024 / 1024).toFixed(1)} MB` : ''}`);
  };
  const fromSqlite = join(tmp, 'from-sqlite.vellum-backup.gz');
  await step('backup SQLite (gzip, with secrets)', ['backup', '-o', fromSqlite, '--include-secrets'], sqliteSource, fromSqlite);
  const postgres = await newPgDatabase();
  await step('restore into PostgreSQL', ['restore', fromSqlite], postgres);
  const fromPostgres = join(tmp, 'from-postgres.vellum-backup');
  await step('backup PostgreSQL (plain NDJSON, with secrets)', ['backup', '-o', fromPostgres, '--include-secrets'], postgres, fromPostgres);
  await step('restore into SQLite', ['restore', fromPostgres], `sqlite:${join(tmp, 'restored.db')}`);

  process.stdout.write(
    `\n${n} posts (+ 10 authors, 1 user, their audit and revisions rows)\n\n| step | seconds | documents/s | file |\n| --- | ---: | ---: | ---: |\n`,
  );
  for (const r of rows) {
    const size = r.size === undefined ? '' : `${(r.size / 1024 / 1024).toFixed(1)} MB`;
    process.stdout.write(`| ${r.what} | ${r.seconds.toFixed(1)} | ${Math.round(n / r.seconds)} | ${size} |\n`);
  }
} finally {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  for (const name of databases) await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
  rmSync(tmp, { recursive: true, force: true });
}
