import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, resolveConfig } from '../../packages/server/src/config/index.js';
import { parseDuration } from '../../packages/server/src/config/duration.js';
import { isKnownExample } from '../../packages/server/src/config/known-examples.js';
import { configProblems } from '../helpers/config-problems.js';

const problems = configProblems;

describe('resolveConfig', () => {
  it('has the documented defaults', () => {
    const c = resolveConfig({}, {});
    expect(c.server).toMatchObject({ port: 3000, host: '0.0.0.0', basePath: '/api', logLevel: 'info' });
    expect(c.database.url).toBe('sqlite:./data/vellum.db');
    expect(c.security.passwordPolicy).toEqual({
      minLength: 10,
      requireUppercase: false,
      requireLowercase: false,
      requireNumbers: false,
      requireSpecial: false,
    });
    expect(c.security.accessTokenTtlMs).toBe(3_600_000);
    expect(c.security.refreshTokenTtlMs).toBe(7 * 86_400_000);
    expect(c.security.rememberMeTtlMs).toBe(30 * 86_400_000);
    expect(c.documents).toEqual({
      publicRead: true,
      responseCache: true,
      countLimit: 10_000,
      scheduleRunner: true,
      previewTokenTtlMs: 3_600_000,
    });
    expect(c.database).toEqual({
      url: 'sqlite:./data/vellum.db',
      connectTimeoutMs: 5000,
      statementTimeoutMs: 10_000,
      keepAlive: true,
      keepAliveInitialDelayMs: 10_000,
      busyTimeoutMs: 5000,
    });
    expect(Object.isFrozen(c.security)).toBe(true);
  });

  it('precedence: flags > environment > file > defaults', () => {
    const file = { server: { port: 4000, host: 'file-host' }, database: { url: 'sqlite:./file.db' } };
    expect(resolveConfig(file, {}).server.port).toBe(4000);
    expect(resolveConfig(file, { PORT: '5000' }).server.port).toBe(5000);
    expect(resolveConfig(file, { PORT: '5000' }, { port: '6000' }).server.port).toBe(6000);
    expect(resolveConfig(file, { HOST: 'env-host' }, { host: 'flag-host' }).server.host).toBe('flag-host');
    expect(resolveConfig(file, { DATABASE_URL: 'postgres://x@y/z' }).database.url).toBe('postgres://x@y/z');
    expect(resolveConfig({}, { LOG_LEVEL: 'debug' }).server.logLevel).toBe('debug');
  });

  it('admin from environment variables', () => {
    const c = resolveConfig(
      {},
      { VELLUM_ADMIN_USERNAME: 'boss', VELLUM_ADMIN_PASSWORD: 'boss-password-1', VELLUM_ADMIN_EMAIL: 'b@example.com' },
    );
    expect(c.security.adminUser).toMatchObject({ username: 'boss', password: 'boss-password-1', email: 'b@example.com' });
  });

  it('tokens.accessTokenTtl wins over tokenExpiry', () => {
    expect(resolveConfig({ security: { tokenExpiry: '2h' } }, {}).security.accessTokenTtlMs).toBe(7_200_000);
    expect(resolveConfig({ security: { tokenExpiry: '2h', tokens: { accessTokenTtl: '5m' } } }, {}).security.accessTokenTtlMs).toBe(
      300_000,
    );
  });

  it('reports one line per problem', () => {
    expect(
      problems({
        server: { port: 'abc' },
        security: { passwordPolicy: { minLength: 0 }, jwtSecret: 'short', tokenExpiry: 'soon', bcryptRounds: 2 },
        bogus: true,
      }),
    ).toEqual([
      'bogus: unknown setting',
      'server.port: expected integer ≥ 0 and ≤ 65535',
      'security.jwtSecret: expected at least 32 bytes (leave it unset to have one generated)',
      'security.tokenExpiry: expected a duration such as "15m", "1h" or "7d"',
      'security.passwordPolicy.minLength: expected integer ≥ 1',
      'security.bcryptRounds: expected integer ≥ 4 and ≤ 31',
    ]);
    expect(problems({}, { PORT: '70000' })).toEqual(['PORT: expected integer ≥ 0 and ≤ 65535']);
    expect(problems({ database: { url: 'mysql://x' } })).toEqual(['database.url: expected sqlite:<path> or postgres://…']);
    expect(
      problems({
        database: {
          connectTimeoutMs: 5,
          statementTimeoutMs: '10s',
          keepAlive: 'yes',
          keepAliveInitialDelayMs: -1,
          busyTimeoutMs: 1.5,
          pool: 3,
        },
      }),
    ).toEqual([
      'database.pool: unknown setting',
      'database.connectTimeoutMs: expected integer ≥ 100',
      'database.statementTimeoutMs: expected integer ≥ 100',
      'database.keepAlive: expected true or false',
      'database.keepAliveInitialDelayMs: expected integer ≥ 0',
      'database.busyTimeoutMs: expected integer ≥ 0',
    ]);
    expect(resolveConfig({ database: { url: 'postgres://x@y/z', connectTimeoutMs: 2000, keepAlive: false } }, {}).database).toMatchObject({
      connectTimeoutMs: 2000,
      statementTimeoutMs: 10_000,
      keepAlive: false,
    });
  });

  it('validates schemas: unknown type, missing reference target, bad names, duplicates, reserved names', () => {
    expect(
      problems({
        schemas: [
          {
            name: 'post',
            fields: [
              { name: 'title', type: 'strin' },
              { name: 'author', type: 'reference', to: 'person' },
              { name: 'title', type: 'string' },
            ],
          },
          { name: 'Bad-Name', fields: [] },
          { name: 'media', fields: [] },
          {
            name: 'page',
            fields: [
              { name: '_x', type: 'string' },
              { name: 'kind', type: 'select' },
              { name: 'slug', type: 'slug', source: 'nope' },
            ],
          },
          {
            name: 'page',
            fields: [
              { name: 'tags', type: 'array', of: { type: 'bogus' } },
              { name: 'seo', type: 'object', fields: [{ name: 'x', type: 'number', unique: true }] },
            ],
          },
        ],
      }),
    ).toEqual([
      'schemas[0].fields[0].type: unknown field type "strin" (expected one of string, text, email, url, slug, number, integer, boolean, date, datetime, select, markdown, richtext, reference, image, file, array, object, blocks, geopoint, json)',
      'schemas[0].fields[1].to: references a missing schema "person"',
      'schemas[0].fields[2].name: duplicate field name "title"',
      'schemas[1].name: expected a name matching /^[a-z][a-zA-Z0-9_]*$/ (got "Bad-Name")',
      'schemas[2].name: "media" is reserved (it names a permission resource)',
      'schemas[3].fields[0].name: expected a field name matching /^[a-zA-Z][a-zA-Z0-9_]*$/ (got "_x")',
      'schemas[3].fields[1].options: expected a non-empty array of strings',
      'schemas[3].fields[2].source: expected the name of a string field beside it (got "nope")',
      'schemas[4].name: duplicate schema name "page"',
      'schemas[4].fields[0].of.type: unknown field type "bogus" (expected one of string, text, email, url, slug, number, integer, boolean, date, datetime, select, markdown, richtext, reference, image, file, array, object, blocks, geopoint, json)',
      'schemas[4].fields[1].fields[0].unique: only top-level scalar fields can be unique or indexed',
    ]);
  });
});

/** The README's sample secret before it was removed: people copied it, so it stays refused. */
const OLD_README_SECRET = 'at least 32 bytes; generated and stored in the database when unset';

/** Every jwtSecret and admin password value written in README.md and docs/. */
function documentedValues(): { secrets: string[]; passwords: string[] } {
  const root = resolve(__dirname, '../..');
  const texts = [join(root, 'README.md'), ...readdirSync(join(root, 'docs')).map((f) => join(root, 'docs', f))]
    .filter((f) => f.endsWith('.md'))
    .map((f) => readFileSync(f, 'utf8'));
  const all = (...res: RegExp[]) => texts.flatMap((text) => res.flatMap((re) => [...text.matchAll(re)].map((m) => m[1])));
  return {
    secrets: all(/"jwtSecret"\s*:\s*"([^"]*)"/g, /jwtSecret:\s*'([^']*)'/g, /VELLUM_JWT_SECRET=([^\s`'"]+)/g),
    passwords: all(/"password"\s*:\s*"([^"]*)"/g, /password:\s*'([^']*)'/g, /VELLUM_ADMIN_PASSWORD=([^\s`'"]+)/g),
  };
}

describe('security.jwtSecret', () => {
  it('a documented example is refused, naming the key', () => {
    expect(problems({ security: { jwtSecret: OLD_README_SECRET } })).toEqual([
      'security.jwtSecret: is a published example; leave it unset to have a random secret generated and stored in the database',
    ]);
    expect(problems({}, { VELLUM_JWT_SECRET: OLD_README_SECRET.toUpperCase() })).toEqual([
      'VELLUM_JWT_SECRET: is a published example; leave it unset to have a random secret generated and stored in the database',
    ]);
  });

  it('a secret of fewer than 16 distinct characters is refused (from the file or VELLUM_JWT_SECRET)', () => {
    const few =
      'security.jwtSecret: too few distinct characters (1; at least 16 expected, 10 for a hex secret); leave it unset to have one generated';
    expect(problems({ security: { jwtSecret: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' } })).toEqual([few]);
    expect(problems({ security: { jwtSecret: 'abcdefghijklmno'.repeat(3) } })).toEqual([few.replace('(1;', '(15;')]);
    expect(problems({}, { VELLUM_JWT_SECRET: 'x'.repeat(40) })).toEqual([few.replace('security.jwtSecret', 'VELLUM_JWT_SECRET')]);
    // Hex digits: fewer than 10 distinct is not random.
    expect(problems({ security: { jwtSecret: '0123456789'.slice(0, 9).repeat(4) } })).toEqual([few.replace('(1;', '(9;')]);
  });

  it('a random secret of 32 bytes or more is accepted, also as hex', () => {
    const random = randomBytes(48).toString('base64url');
    expect(resolveConfig({ security: { jwtSecret: random } }, {}).security.jwtSecret).toBe(random);
    expect(problems({}, { VELLUM_JWT_SECRET: randomBytes(32).toString('base64') })).toEqual([]);
    // A random 32-character hex secret often lacks some of the 16 digits (this one has no 6).
    expect(problems({ security: { jwtSecret: '3f9a1c07e2b4d85f9c3a07e1b2d4f8c3' } })).toEqual([]);
  });

  it('every secret shown in README.md and docs/ is refused; every admin password shown there is a known example', () => {
    const { secrets, passwords } = documentedValues();
    for (const secret of [...secrets, OLD_README_SECRET])
      expect([secret, problems({ security: { jwtSecret: secret } })]).toMatchObject([
        secret,
        [expect.stringMatching(/^security\.jwtSecret: /)],
      ]);
    expect(passwords).toContain('change-me-please');
    for (const password of passwords) expect([password, isKnownExample(password)]).toEqual([password, true]);
    expect(isKnownExample('admin-password-1')).toBe(false);
  });
});

describe('loadConfig', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'vellum-config-'));

  it('reads vellum.config.json from the working directory', async () => {
    const cwd = dir();
    writeFileSync(join(cwd, 'vellum.config.json'), JSON.stringify({ server: { port: 4321 } }));
    expect((await loadConfig({ cwd, env: {} })).server.port).toBe(4321);
  });

  it('reads a .mjs config with hook functions', async () => {
    const cwd = dir();
    writeFileSync(join(cwd, 'vellum.config.mjs'), `export default { server: { port: 4322 }, security: { assignRole: (u) => 'writer' } };`);
    const c = await loadConfig({ cwd, env: {} });
    expect(c.server.port).toBe(4322);
    expect(c.security.assignRole?.({ username: 'x', email: 'x@y.z', role: 'viewer' })).toBe('writer');
  });

  it('reads a .ts config (compiled on the fly)', async () => {
    const cwd = dir();
    writeFileSync(
      join(cwd, 'vellum.config.ts'),
      `const port: number = 4323;\nexport default { server: { port }, security: { validateUser: (u: { email: string }) => u.email.endsWith('@example.com') } };`,
    );
    const c = await loadConfig({ cwd, env: {} });
    expect(c.server.port).toBe(4323);
    expect(typeof c.security.validateUser).toBe('function');
  });

  it('takes --config / VELLUM_CONFIG over the working directory', async () => {
    const cwd = dir();
    writeFileSync(join(cwd, 'vellum.config.json'), JSON.stringify({ server: { port: 1111 } }));
    writeFileSync(join(cwd, 'other.json'), JSON.stringify({ server: { port: 2222 } }));
    expect((await loadConfig({ cwd, env: { VELLUM_CONFIG: 'other.json' } })).server.port).toBe(2222);
    expect((await loadConfig({ cwd, env: {}, configPath: join(cwd, 'other.json') })).server.port).toBe(2222);
  });

  it('reports a missing or broken config file as a problem line', async () => {
    const cwd = dir();
    await expect(loadConfig({ cwd, env: {}, configPath: 'missing.json' })).rejects.toThrow(/config: file not found/);
    writeFileSync(join(cwd, 'vellum.config.json'), '{ not json');
    await expect(loadConfig({ cwd, env: {} })).rejects.toBeInstanceOf(ConfigError);
  });
});

describe('parseDuration', () => {
  it('parses units and bare seconds', () => {
    expect(parseDuration('15m')).toBe(900_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('7d')).toBe(604_800_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration(60)).toBe(60_000);
    expect(parseDuration('soon')).toBeUndefined();
    expect(parseDuration('0s')).toBeUndefined();
  });
});
