import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, resolveConfig } from '../../packages/server/src/index.js';
import { ADMIN, injectRequests, type TestApp } from '../helpers/app.js';
import { assertCliBuilt, runCli, type CliRun } from '../helpers/cli.js';
import { createUser } from '../helpers/create-user.js';
import { createTestDatabase, type TestDatabase, type TestDialect } from '../helpers/database.js';
import { png } from '../helpers/media-fixtures.js';
import { multipartUpload } from '../helpers/multipart-upload.js';
import { PASSKEY_ORIGIN, passkeyClient } from '../helpers/passkey-client.js';
import { postDocument } from '../helpers/post-document.js';
import type { SoftwareAuthenticator } from '../helpers/software-authenticator.js';
import { enableTotp, totpCode, TOTP_PERIOD_MS } from '../helpers/totp.js';

/**
 * `vellum backup` and `vellum restore` (packages/cli/src/commands/backup.ts) round trips between
 * the engines: SQLite → SQLite, SQLite → PostgreSQL and PostgreSQL → SQLite, each with secrets
 * and without. A source instance per engine is populated through the API (users with a password,
 * TOTP, a trusted device and a passkey; an API token; documents with references, revisions, a
 * pending draft and a schedule; an image with variants; a webhook; settings; the audit log),
 * read through the API, backed up by the CLI, restored by the CLI into a fresh database (with
 * another `security.encryptionKey`) and read again: every answer is equal, and the accounts
 * sign in as the secrets allow. Then the refusals: a database not empty, a wrong or missing
 * passphrase, a file cut short, a media file with other bytes.
 *
 * Every app runs on a clock of its own (the app's injected `now`): the reads of source and
 * target happen at the same instant, so the API token's `lastUsedAt` (touched at most once a
 * minute) and the audit log read up to that instant are the same; the sign-ins after a restore
 * come later, at TOTP steps after the ones the source used. The round trips and the refusals run
 * concurrently, each on a database and media directory of its own: the CLI's start-up dominates.
 */

const PASSPHRASE = 'correct horse battery staple';
const PASSWORD = 'backup-password-1';
const DEVICE = 'backup-device-0123456789';
const START = Math.floor(Date.now() / TOTP_PERIOD_MS) * TOTP_PERIOD_MS;
/** The instant of the reads compared (source before the backup, target after the restore); the audit log is read up to it. */
const READ_AT = START + 20 * 60_000;
/** Sign-ins on a restored target start here, TOTP steps after any the source spent. */
const SIGN_IN_AT = READ_AT + 2 * 60_000;

const SCHEMAS = [
  {
    name: 'author',
    title: 'Author',
    fields: [
      { name: 'name', type: 'string', required: true },
      { name: 'bio', type: 'text' },
    ],
  },
  {
    name: 'post',
    title: 'Post',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'slug', type: 'slug', source: 'title' },
      { name: 'body', type: 'text' },
      { name: 'price', type: 'number', indexed: true },
      { name: 'tags', type: 'array', of: { type: 'string' } },
      { name: 'author', type: 'reference', to: 'author' },
      { name: 'cover', type: 'image' },
    ],
  },
];

type RawConfig = Record<string, unknown>;

function instanceConfig(url: string, mediaDir: string, encryptionKey: string): RawConfig {
  return {
    database: { url },
    media: { dir: mediaDir },
    schemas: SCHEMAS,
    security: {
      bcryptRounds: 4,
      adminUser: ADMIN,
      encryptionKey,
      rateLimit: { login: { windowMs: 900_000, max: 1000 } },
      passkey: { enabled: true, rpId: 'localhost', rpName: 'Vellum', origin: PASSKEY_ORIGIN },
    },
    webhooks: { worker: false, allowPrivateNetworks: true },
    documents: { scheduleRunner: false },
  };
}

const temps: string[] = [];
const databases: TestDatabase[] = [];
const apps: TestApp[] = [];

function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `vellum-backup-${name}-`));
  temps.push(dir);
  return dir;
}

async function freshDatabase(engine: TestDialect): Promise<TestDatabase> {
  const db = await createTestDatabase(engine);
  databases.push(db);
  return db;
}

/** The configuration as a file for the CLI (`--config`), and the same object for the app started in this process. */
function writeConfig(dir: string, config: RawConfig): string {
  const path = join(dir, 'vellum.config.json');
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

interface Clock {
  at: number;
}

/** An app on `config`, in this process, on its own clock: the requests of the HTTP suites, without a socket. */
async function startInstance(config: RawConfig, db: TestDatabase, clock: Clock): Promise<TestApp> {
  const app = await createApp(resolveConfig(config, {}), { now: () => new Date(clock.at) });
  const { request, login } = injectRequests(app);
  const t: TestApp = {
    app,
    db,
    request,
    login,
    userToken: () => Promise.reject(new Error('not used here')),
    close: () => app.close(),
  };
  apps.push(t);
  return t;
}

async function closeInstance(t: TestApp): Promise<void> {
  apps.splice(apps.indexOf(t), 1);
  await t.close();
}

/** The ids, secrets and credentials a populated source hands to the checks of its restores. */
interface Populated {
  adminSession: string;
  apiToken: string;
  postA: string;
  postB: string;
  mediaId: string;
  hookId: string;
  hookSecret: string;
  totp: { username: string; secret: string; backupCodes: string[] };
  passkey: { username: string; key: SoftwareAuthenticator };
}

const EDITOR = 'editor1';
const TOTP_USER = 'totp1';
const PASSKEY_USER = 'passkey1';
const ALL_USERS = [ADMIN.username, EDITOR, TOTP_USER, PASSKEY_USER];
const passwordOf = (username: string) => (username === ADMIN.username ? ADMIN.password : PASSWORD);

/** The `data` of a 200 or 201 answer. */
async function ok<T = Record<string, unknown>>(res: Promise<{ statusCode: number; body: string; json(): { data: T } }>): Promise<T> {
  const r = await res;
  expect([200, 201], r.body).toContain(r.statusCode);
  return r.json().data;
}

/** Fills a source through the API, the clock moving a second before each step so every row has a time of its own. */
async function populate(t: TestApp, clock: Clock): Promise<Populated> {
  const step = () => (clock.at += 1000);
  const admin = await t.login(ADMIN.username, ADMIN.password);
  const as = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: Record<string, unknown>) => {
    step();
    return ok(t.request({ method, url: `/api${url}`, token: admin, payload }));
  };

  step();
  const settings = await as('PUT', '/config/settings', { siteName: 'Backup Bay', publicUrl: 'https://cms.example.com' });
  expect(settings).toMatchObject({ siteName: 'Backup Bay' });
  const hook = await as('POST', '/webhooks', { name: 'Rebuild', url: 'http://127.0.0.1:9/hook', events: ['document.*', 'media.*'] });
  const hookId = (hook.webhook as { id: string }).id;

  step();
  await createUser(t, admin, { username: EDITOR, password: PASSWORD, role: 'editor', firstName: 'Edda' });
  step();
  await createUser(t, admin, { username: TOTP_USER, password: PASSWORD, role: 'author' });
  step();
  await createUser(t, admin, { username: PASSKEY_USER, password: PASSWORD, role: 'writer' });

  // TOTP, then a sign-in with a code one step later that trusts a device.
  step();
  const totpSession = await t.login(TOTP_USER, PASSWORD);
  const { secret, backupCodes } = await enableTotp(t, totpSession, clock.at);
  clock.at += TOTP_PERIOD_MS;
  const pending = await ok<{ mfaToken: string }>(
    t.request({ method: 'POST', url: '/api/auth/login', payload: { username: TOTP_USER, password: PASSWORD } }),
  );
  const trusted = await ok(
    t.request({
      method: 'POST',
      url: '/api/auth/mfa/verify',
      payload: {
        method: 'totp',
        mfaToken: pending.mfaToken,
        code: totpCode(secret, clock.at),
        trustDevice: true,
        deviceId: DEVICE,
        deviceName: 'Laptop',
      },
    }),
  );
  expect(trusted.token).toEqual(expect.any(String));

  step();
  const passkeySession = await t.login(PASSKEY_USER, PASSWORD);
  const { key } = await passkeyClient(() => t).register(passkeySession, undefined, 'Phone');

  const token = await as('POST', '/tokens', {
    name: 'reader',
    permissions: ['content:read', 'media:read', 'users:read', 'settings:read', 'tokens:read', 'webhooks:read'],
  });

  // An image with variants, with alt text and a focal point.
  step();
  const upload = await multipartUpload(await png(1200, 800), 'harbour.png', { alt: 'The harbour' });
  const media = await ok<{ _id: string; variants: Record<string, string> }>(
    t.request({ method: 'POST', url: '/api/media', token: admin, payload: upload.payload, headers: upload.headers }),
  );
  expect(Object.keys(media.variants).sort()).toEqual(['medium', 'thumb']);
  await as('PATCH', `/media/${media._id}`, { title: 'Harbour', focalPoint: { x: 0.25, y: 0.75 } });

  step();
  const ada = (await postDocument(t, admin, 'author', { name: 'Ada Lovelace', bio: 'Wrote the first program', _status: 'published' }))._id;
  step();
  const postA = (
    await postDocument(t, admin, 'post', {
      title: 'Analytical engine notes',
      body: 'A zeppelin over the harbour',
      price: 12.5,
      tags: ['history', 'engines'],
      author: ada,
      cover: media._id,
      _status: 'published',
    })
  )._id as string;
  await as('PATCH', `/documents/post/${postA}`, { price: 13.75 });
  await as('PATCH', `/documents/post/${postA}`, { tags: ['history'] });
  // A pending draft, saved twice.
  await as('PATCH', `/documents/post/${postA}?draft=true`, { body: 'A quokka in the draft' });
  await as('PATCH', `/documents/post/${postA}?draft=true`, { title: 'Analytical engine notes, revised' });

  step();
  const postB = (await postDocument(t, admin, 'post', { title: 'Difference engine', author: ada }))._id as string;
  await as('PUT', `/documents/post/${postB}`, { title: 'Difference engine No. 2', author: ada, price: 3 });
  step();
  const postC = (await postDocument(t, admin, 'post', { title: 'Planned note' }))._id as string;
  await as('POST', `/documents/post/${postC}/schedule`, { action: 'publish', at: new Date(START + 86_400_000).toISOString() });

  return {
    adminSession: admin,
    apiToken: token.token as string,
    postA,
    postB,
    mediaId: media._id,
    hookId,
    hookSecret: hook.secret as string,
    totp: { username: TOTP_USER, secret, backupCodes },
    passkey: { username: PASSKEY_USER, key },
  };
}

type Reads = Record<string, unknown>;

/**
 * The answers compared before and after: parsed JSON (key order differs between the engines),
 * and each media file's type and SHA-256. All with the API token, which the restore keeps,
 * but the audit log, which only an admin's session reads.
 */
async function readAll(t: TestApp, p: Populated, auditSession: () => Promise<string>): Promise<Reads> {
  const paths = [
    '/documents/author',
    '/documents/post',
    '/documents/post?perspective=drafts',
    '/documents/post?search=zeppelin',
    '/documents/post?perspective=drafts&search=quokka',
    '/documents/post?expand=author,cover&order=asc',
    `/documents/post/${p.postA}?expand=author,cover`,
    `/documents/post/${p.postA}?perspective=drafts`,
    `/documents/post/${p.postA}/revisions`,
    `/documents/post/${p.postA}/revisions?kind=draft`,
    `/documents/post/${p.postB}/revisions`,
    '/media',
    `/media/${p.mediaId}`,
    '/users',
    '/tokens',
    '/webhooks',
    `/webhooks/${p.hookId}`,
    `/webhooks/${p.hookId}/deliveries`,
    '/schedules',
    '/config/settings',
  ];
  const reads: Reads = {};
  for (const path of paths) {
    const res = await t.request({ method: 'GET', url: `/api${path}`, token: p.apiToken });
    expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    reads[path] = res.json();
  }
  const media = (reads[`/media/${p.mediaId}`] as { data: { url: string; variants: Record<string, string> } }).data;
  for (const url of [media.url, ...Object.values(media.variants)]) {
    const file = await t.request({ method: 'GET', url, token: p.apiToken });
    expect(file.statusCode, url).toBe(200);
    reads[url] = {
      type: file.headers['content-type'],
      size: file.rawPayload.length,
      sha256: createHash('sha256').update(file.rawPayload).digest('hex'),
    };
  }
  // Last: on a target, the admin's sign-in adds to the audit log (after READ_AT) and moves the admin's lastLogin.
  const audit = `/api/audit?until=${encodeURIComponent(new Date(READ_AT).toISOString())}&limit=100`;
  const res = await t.request({ method: 'GET', url: audit, token: await auditSession() });
  expect(res.statusCode, res.body).toBe(200);
  reads['/audit'] = res.json();
  return reads;
}

const WEBHOOK_STATE = ['active', 'disabledAt', 'disabledReason'] as const;

/** The reads without the webhook's on/off state (a restore without secrets turns it off). */
function withoutWebhookState(reads: Reads, p: Populated): { reads: Reads; states: Record<string, unknown>[] } {
  const copy = structuredClone(reads);
  const hooks = [
    ...(copy['/webhooks'] as { data: Record<string, unknown>[] }).data,
    (copy[`/webhooks/${p.hookId}`] as { data: Record<string, unknown> }).data,
  ];
  const states = hooks.map((h) => {
    const state = Object.fromEntries(WEBHOOK_STATE.map((k) => [k, h[k]]));
    for (const k of WEBHOOK_STATE) delete h[k];
    return state;
  });
  return { reads: copy, states };
}

interface Source {
  engine: TestDialect;
  db: TestDatabase;
  dir: string;
  mediaDir: string;
  configPath: string;
  t: TestApp;
  p: Populated;
  before: Reads;
  /** A backup with secrets (passphrase PASSPHRASE) and one without. */
  secrets: string;
  plain: string;
}

const sources = {} as Record<TestDialect, Source>;

async function prepareSource(engine: TestDialect): Promise<Source> {
  const dir = tempDir(`source-${engine}`);
  const db = await freshDatabase(engine);
  const mediaDir = join(dir, 'media');
  const config = instanceConfig(db.url, mediaDir, `source-${engine}-encryption-key-0123456789abcdef`);
  const configPath = writeConfig(dir, config);
  const clock = { at: START };
  const t = await startInstance(config, db, clock);
  const p = await populate(t, clock);
  expect(clock.at).toBeLessThan(READ_AT);
  clock.at = READ_AT;
  const before = await readAll(t, p, async () => p.adminSession);
  // The SQLite source's backup with secrets is gzipped.
  const secrets = join(dir, engine === 'sqlite' ? 'secrets.ndjson.gz' : 'secrets.ndjson');
  return { engine, db, dir, mediaDir, configPath, t, p, before, secrets, plain: join(dir, 'plain.ndjson') };
}

const lines = (file: string) => {
  const bytes = readFileSync(file);
  return (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8').split('\n').filter(Boolean);
};

const expectExit = (run: CliRun, code: number) =>
  expect(run.code, `exit ${run.code}\n${run.stdout.slice(0, 2000)}\n${run.stderr}`).toBe(code);

beforeAll(async () => {
  assertCliBuilt();
  const [sqlite, postgres] = await Promise.all([prepareSource('sqlite'), prepareSource('postgres')]);
  sources.sqlite = sqlite;
  sources.postgres = postgres;

  // The source instances keep serving while the backups read them.
  const runs = await Promise.all([
    // SQLite: the passphrase from the environment, gzipped; then without secrets.
    runCli(['backup', '--config', sqlite.configPath, '--include-secrets', '-o', sqlite.secrets, '--json'], {
      env: { VELLUM_BACKUP_PASSPHRASE: PASSPHRASE },
    }),
    runCli(['backup', '--config', sqlite.configPath, '-o', sqlite.plain]),
    // PostgreSQL: the passphrase on stdin; then without secrets, to stdout.
    runCli(['backup', '--config', postgres.configPath, '--include-secrets', '--passphrase-stdin', '-o', postgres.secrets], {
      input: `${PASSPHRASE}\n`,
    }),
    runCli(['backup', '--config', postgres.configPath]),
  ]);
  for (const run of runs) expectExit(run, 0);
  writeFileSync(postgres.plain, runs[3]!.stdout);

  expect(JSON.parse(runs[0]!.stdout)).toMatchObject({ file: sqlite.secrets, secrets: true, files: 3, missingFiles: [] });
  expect(runs[1]!.stderr).toMatch(
    /^backed up 4 documents, 4 users and 3 files \(.*\): \d+ rows of \d+ tables, without secrets, to .*plain\.ndjson$/m,
  );
});

afterAll(async () => {
  for (const t of [...apps]) await t.close().catch(() => undefined);
  await Promise.all(databases.map((db) => db.drop().catch(() => undefined)));
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('the sources and their backups', () => {
  it('the reads cover what the round trips compare: search finds, revisions, a draft, a schedule, deliveries, the audit log', () => {
    for (const { before, p } of Object.values(sources)) {
      const data = (path: string) => (before[path] as { data: unknown[] }).data;
      expect(data('/documents/post?search=zeppelin')).toHaveLength(1);
      expect(data('/documents/post?perspective=drafts&search=quokka')).toHaveLength(1);
      expect(data(`/documents/post/${p.postA}/revisions`)).toHaveLength(3);
      expect(data(`/documents/post/${p.postA}/revisions?kind=draft`)).toHaveLength(2);
      expect(data('/schedules')).toHaveLength(1);
      expect(data(`/webhooks/${p.hookId}/deliveries`).length).toBeGreaterThan(3);
      expect(data('/users')).toHaveLength(4);
      expect(data('/tokens')).toEqual([expect.objectContaining({ name: 'reader', lastUsedAt: new Date(READ_AT).toISOString() })]);
      const types = new Set((data('/audit') as { type: string }[]).map((e) => e.type));
      expect([...types]).toEqual(
        expect.arrayContaining(['login', 'userCreate', 'mfaEnable', 'passkeyAdd', 'tokenCreate', 'settingsUpdate']),
      );
      const expanded = (
        before[`/documents/post/${p.postA}?expand=author,cover`] as { data: { author: { name: string }; cover: { _id: string } } }
      ).data;
      expect(expanded.author.name).toBe('Ada Lovelace');
      expect(expanded.cover._id).toBe(p.mediaId);
      const media = (before[`/media/${p.mediaId}`] as { data: { url: string; focalPoint: unknown } }).data;
      expect(media.focalPoint).toEqual({ x: 0.25, y: 0.75 });
      expect(before[media.url]).toMatchObject({ type: 'image/png' });
    }
  });

  it('files: gzipped when -o ends in .gz, readable by the owner only; secrets only encrypted, none without them', () => {
    for (const source of Object.values(sources)) {
      const { p } = source;
      const secrets = lines(source.secrets);
      const plain = lines(source.plain);
      for (const [file, all] of [
        [source.secrets, secrets],
        [source.plain, plain],
      ] as const) {
        const header = JSON.parse(all[0]!);
        expect(header).toMatchObject({ kind: 'vellum-backup', version: 1, engine: source.engine });
        expect(JSON.parse(all[all.length - 1]!)).toMatchObject({ kind: 'end' });
        const text = all.join('\n');
        // Neither holds a secret in the clear, nor the plain API token.
        for (const secret of [p.totp.secret, p.hookSecret, p.hookSecret.slice('whsec_'.length), DEVICE, p.apiToken])
          expect(text).not.toContain(secret);
        if (file !== source.plain || source.engine === 'sqlite') expect(statSync(file).mode & 0o777).toBe(0o600);
      }
      expect(JSON.parse(secrets[0]!).secrets).toMatchObject({ cipher: 'aes-256-gcm', kdf: 'scrypt' });
      expect(secrets.filter((l) => JSON.parse(l).kind === 'sealed').length).toBeGreaterThanOrEqual(4);
      expect(JSON.parse(plain[0]!).secrets).toBeUndefined();
      expect(plain.some((l) => JSON.parse(l).kind === 'sealed')).toBe(false);
      expect(Object.keys(JSON.parse(plain[0]!).contents.tables)).not.toContain('passkey_credentials');
    }
    expect(readFileSync(sources.sqlite.secrets).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(readFileSync(sources.postgres.secrets)[0]).toBe('{'.charCodeAt(0));
  });
});

interface RoundTrip {
  from: TestDialect;
  to: TestDialect;
  /** Which backup, and how its passphrase is given (or that it is left without: `--without-secrets`). */
  backup: 'secrets' | 'plain';
  passphrase?: 'env' | 'stdin' | 'without-secrets';
  /** `source`: the source's own media directory, whose files the restore finds there with the same bytes and keeps. */
  media: 'fresh' | 'source';
}

const ROUND_TRIPS: RoundTrip[] = [
  { from: 'sqlite', to: 'sqlite', backup: 'secrets', passphrase: 'env', media: 'fresh' },
  { from: 'sqlite', to: 'sqlite', backup: 'plain', media: 'source' },
  { from: 'sqlite', to: 'postgres', backup: 'secrets', passphrase: 'stdin', media: 'fresh' },
  { from: 'sqlite', to: 'postgres', backup: 'plain', media: 'fresh' },
  { from: 'postgres', to: 'sqlite', backup: 'secrets', passphrase: 'env', media: 'fresh' },
  { from: 'postgres', to: 'sqlite', backup: 'plain', media: 'fresh' },
  { from: 'postgres', to: 'postgres', backup: 'secrets', passphrase: 'without-secrets', media: 'fresh' },
];

const nameOf = (r: RoundTrip) =>
  `${r.from} → ${r.to}, ${r.backup === 'plain' ? 'a backup without secrets' : r.passphrase === 'without-secrets' ? 'a backup with secrets restored --without-secrets' : `with secrets (passphrase from ${r.passphrase})`}${r.media === 'source' ? ', into the source’s media directory' : ''}`;

/** A fresh target: its database, media directory and configuration, with an encryption key of its own. */
async function newTarget(engine: TestDialect, mediaDir?: string) {
  const dir = tempDir(`target-${engine}`);
  const db = await freshDatabase(engine);
  const config = instanceConfig(db.url, mediaDir ?? join(dir, 'media'), `target-${engine}-key-${dir.slice(-6)}-fedcba9876543210`);
  return { dir, db, config, configPath: writeConfig(dir, config), mediaDir: mediaDir ?? join(dir, 'media') };
}

function restore(file: string, configPath: string, how: RoundTrip['passphrase'], extra: string[] = []): Promise<CliRun> {
  const args = ['restore', file, '--config', configPath, '--json', ...extra];
  if (how === 'env') return runCli(args, { env: { VELLUM_BACKUP_PASSPHRASE: PASSPHRASE } });
  if (how === 'stdin') return runCli([...args, '--passphrase-stdin'], { input: `${PASSPHRASE}\n` });
  if (how === 'without-secrets') return runCli([...args, '--without-secrets']);
  return runCli(args);
}

describe('round trips: every answer equal after the restore, and the accounts sign in as the secrets allow', () => {
  it.concurrent.each(ROUND_TRIPS.map((r) => [nameOf(r), r] as const))('%s', async (_name, trip) => {
    const source = sources[trip.from];
    const { p } = source;
    const target = await newTarget(trip.to, trip.media === 'source' ? source.mediaDir : undefined);
    const secretsKept = trip.backup === 'secrets' && trip.passphrase !== 'without-secrets';

    const run = await restore(trip.backup === 'secrets' ? source.secrets : source.plain, target.configPath, trip.passphrase);
    expectExit(run, 0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({
      files: 3,
      keptFiles: trip.media === 'source' ? 3 : 0,
      secrets: trip.backup === 'plain' ? 'none' : secretsKept ? 'restored' : 'left out',
      webhooksDisabled: secretsKept ? 0 : 1,
      totpWithoutSecret: secretsKept ? 0 : 1,
      missingFiles: [],
    });
    expect(summary.tables).toMatchObject({ users: 4, documents: 4, media: 1, api_tokens: 1, webhooks: 1, schedules: 1 });
    if (trip.media === 'fresh') expect(readdirSync(target.mediaDir).sort()).toHaveLength(3);

    const clock = { at: READ_AT };
    const t = await startInstance(target.config, target.db, clock);
    try {
      // The reads before any sign-in: the audit log then holds what the backup held, and no user's lastLogin moved.
      const tokenReads = await readAll(t, p, () => {
        clock.at = SIGN_IN_AT;
        return t.login(ADMIN.username, ADMIN.password);
      });
      if (secretsKept) {
        expect(tokenReads).toEqual(source.before);
      } else {
        const after = withoutWebhookState(tokenReads, p);
        expect(after.reads).toEqual(withoutWebhookState(source.before, p).reads);
        for (const state of after.states) {
          expect(state).toEqual({
            active: false,
            disabledAt: expect.any(String),
            disabledReason: expect.stringMatching(/restored from a backup without secrets/),
          });
        }
      }

      // Sessions are not restored: the source's admin session is refused.
      expect((await t.request({ method: 'GET', url: '/api/auth/me', token: p.adminSession })).statusCode).toBe(401);

      // Passwords: every user signs in (the TOTP user is asked for the second factor).
      clock.at = SIGN_IN_AT + TOTP_PERIOD_MS;
      const login = (username: string, extra: Record<string, unknown> = {}) =>
        ok<Record<string, unknown>>(
          t.request({ method: 'POST', url: '/api/auth/login', payload: { username, password: passwordOf(username), ...extra } }),
        );
      for (const username of ALL_USERS.filter((u) => u !== TOTP_USER))
        expect(await login(username)).toMatchObject({ token: expect.any(String), user: { username } });
      const mfa = await login(TOTP_USER);
      expect(mfa).toMatchObject({ requiresMFA: true, methods: ['totp'] });
      const verify = (code: string) =>
        t.request({ method: 'POST', url: '/api/auth/mfa/verify', payload: { method: 'totp', mfaToken: mfa.mfaToken, code } });
      const trustedLogin = await login(TOTP_USER, { deviceId: DEVICE });
      const passkeyLogin = await passkeyClient(() => t).loginWith(p.passkey.key);

      if (secretsKept) {
        // The TOTP secret, sealed again with the target's key: a fresh code signs in.
        const done = await ok<{ token: string }>(verify(totpCode(p.totp.secret, clock.at)));
        // The trusted device skips the code, and its id opens with the target's key.
        expect(trustedLogin).toMatchObject({ token: expect.any(String), user: { username: TOTP_USER } });
        const devices = await ok<{ deviceId: string; name: string }[]>(
          t.request({ method: 'GET', url: '/api/auth/mfa/trusted-devices', token: done.token }),
        );
        expect(devices).toEqual([expect.objectContaining({ deviceId: DEVICE, name: 'Laptop' })]);
        expect(await ok(t.request({ method: 'GET', url: '/api/auth/mfa/status', token: done.token }))).toEqual({
          methods: ['totp'],
          backupCodesRemaining: 10,
          trustedDevices: 1,
        });
        expect(passkeyLogin.statusCode, passkeyLogin.body).toBe(200);
        expect(passkeyLogin.json().data.user.username).toBe(PASSKEY_USER);
      } else {
        // No secret: the code is refused, a backup code signs in; no trusted device, no passkey.
        expect((await verify(totpCode(p.totp.secret, clock.at))).statusCode).toBe(401);
        const backup = await ok<{ token: string }>(
          t.request({
            method: 'POST',
            url: '/api/auth/mfa/verify-backup',
            payload: { mfaToken: mfa.mfaToken, code: p.totp.backupCodes[0] },
          }),
        );
        expect(await ok(t.request({ method: 'GET', url: '/api/auth/mfa/status', token: backup.token }))).toEqual({
          methods: ['totp'],
          backupCodesRemaining: 9,
          trustedDevices: 0,
        });
        expect(trustedLogin).toMatchObject({ requiresMFA: true });
        expect(passkeyLogin.statusCode, passkeyLogin.body).toBe(401);
      }

      // Written after the restore: the next document gets a seq after the restored ones, and is found.
      const admin = await t.login(ADMIN.username, ADMIN.password);
      const added = await postDocument(t, admin, 'post', { title: 'After the restore', body: 'albatross' });
      const found = await ok<{ _id: string }[]>(
        t.request({ method: 'GET', url: '/api/documents/post?search=albatross', token: p.apiToken }),
      );
      expect(found.map((d) => d._id)).toEqual([added._id]);
    } finally {
      await closeInstance(t);
    }
  });
});

/** The files of a media directory (none when the store never made it). */
const filesIn = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir) : []);

/** The rows of `table` in a target's database, read without the server. */
async function countRows(db: TestDatabase, engine: TestDialect, table: string): Promise<number | 'no table'> {
  if (engine === 'sqlite') {
    const conn = new Sqlite(db.url.slice('sqlite:'.length), { readonly: true });
    try {
      const exists = conn.prepare(`select 1 from sqlite_master where type = 'table' and name = ?`).get(table);
      return exists ? (conn.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n : 'no table';
    } finally {
      conn.close();
    }
  }
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const exists = await client.query('select to_regclass($1) as t', [table]);
    if (exists.rows[0].t === null) return 'no table';
    return Number((await client.query(`select count(*) as n from ${table}`)).rows[0].n);
  } finally {
    await client.end();
  }
}

describe.concurrent('refusals: nothing is changed', () => {
  it('into a database that holds users: exit 73, its rows as they were', async () => {
    const target = await newTarget('postgres');
    const t = await startInstance(target.config, target.db, { at: READ_AT });
    await closeInstance(t);
    const run = await restore(sources.sqlite.plain, target.configPath, undefined);
    expectExit(run, 73);
    expect(run.stderr).toMatch(/not empty \(users hold rows\)/);
    expect(await countRows(target.db, 'postgres', 'users')).toBe(1);
    expect(await countRows(target.db, 'postgres', 'documents')).toBe(0);
  });

  it('a backup passphrase under 12 characters: exit 64, and no file', async () => {
    const out = join(sources.sqlite.dir, 'short.ndjson');
    const run = await runCli(['backup', '--config', sources.sqlite.configPath, '--include-secrets', '-o', out], {
      env: { VELLUM_BACKUP_PASSPHRASE: 'eleven char' },
    });
    expectExit(run, 64);
    expect(run.stderr).toMatch(/at least 12 characters/);
    expect(existsSync(out) || existsSync(`${out}.partial`)).toBe(false);
  });

  it('a wrong passphrase: exit 77 before anything is written', async () => {
    const target = await newTarget('sqlite');
    const wrong = await runCli(['restore', sources.postgres.secrets, '--config', target.configPath], {
      env: { VELLUM_BACKUP_PASSPHRASE: 'not the passphrase at all' },
    });
    expectExit(wrong, 77);
    expect(wrong.stderr).toMatch(/passphrase does not open/);
    expect(await countRows(target.db, 'sqlite', 'users')).toBe('no table');
  });

  it('a backup with secrets and no passphrase (no terminal, no environment): exit 64 naming both ways', async () => {
    const target = await newTarget('sqlite');
    const run = await runCli(['restore', sources.sqlite.secrets, '--config', target.configPath]);
    expectExit(run, 64);
    expect(run.stderr).toMatch(
      /the backup holds secrets: restore it --without-secrets, or give the passphrase with --passphrase-stdin or VELLUM_BACKUP_PASSPHRASE/,
    );
    expect(await countRows(target.db, 'sqlite', 'users')).toBe('no table');
  });

  it.each([
    ['sqlite', 'postgres', 'its end line dropped'],
    ['postgres', 'sqlite', 'a gzipped one cut in half'],
  ] as const)(
    'into %s, a backup of %s cut short (%s): exit 65, no users, no media files left; the whole file then restores',
    async (engine, from, how) => {
      const target = await newTarget(engine);
      const source = sources[from];
      const cut = join(target.dir, 'cut.ndjson');
      if (how === 'its end line dropped') writeFileSync(cut, `${lines(source.plain).slice(0, -1).join('\n')}\n`);
      else writeFileSync(cut, readFileSync(source.secrets).subarray(0, statSync(source.secrets).size / 2));
      const file = how === 'its end line dropped' ? source.plain : source.secrets;
      const passphrase = how === 'its end line dropped' ? undefined : 'env';
      const run = await restore(cut, target.configPath, passphrase);
      expectExit(run, 65);
      expect(run.stderr).toMatch(/cut short/);
      expect(await countRows(target.db, engine, 'users')).toBe(0);
      expect(await countRows(target.db, engine, 'documents')).toBe(0);
      expect(filesIn(target.mediaDir)).toEqual([]);
      // The failed restore left the database as a restore finds an empty one.
      expectExit(await restore(file, target.configPath, passphrase), 0);
      expect(await countRows(target.db, engine, 'users')).toBe(4);
    },
  );

  it('a media directory holding one of the files with other bytes: exit 73, no rows, and the file untouched', async () => {
    const target = await newTarget('sqlite');
    const { filename } = (sources.sqlite.before[`/media/${sources.sqlite.p.mediaId}`] as { data: { filename: string } }).data;
    mkdirSync(target.mediaDir);
    writeFileSync(join(target.mediaDir, filename), 'other bytes');
    const run = await restore(sources.sqlite.plain, target.configPath, undefined);
    expectExit(run, 73);
    expect(run.stderr).toMatch(/already holds .* with other bytes/);
    expect(await countRows(target.db, 'sqlite', 'users')).toBe(0);
    expect(readdirSync(target.mediaDir)).toEqual([filename]);
    expect(readFileSync(join(target.mediaDir, filename), 'utf8')).toBe('other bytes');
  });
});
