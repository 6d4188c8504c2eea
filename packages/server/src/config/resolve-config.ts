import { ConfigReader } from './reader.js';
import { ConfigError } from './config-error.js';
import { parseDuration } from './duration.js';
import { validateSchemas } from './validate-schemas.js';
import { localesSection } from './locales-section.js';
import { AUDIT_EVENTS } from './audit-events.js';
import { mediaSection } from './media-section.js';
import { databaseSection } from './database-section.js';
import { webhooksSection } from './webhooks-section.js';
import { corsSection } from './cors-section.js';
import { compressionSection } from './compression-section.js';
import { metricsSection } from './metrics-section.js';
import { passkeySection } from './passkey-section.js';
import { oauthSection } from './oauth-section.js';
import { oauth2Section } from './oauth2-section.js';
import { realtimeSection } from './realtime-section.js';
import { captchaSection, checkJwtSecret, cookieSection } from './security-section.js';
import type { AdminUserConfig, VellumConfig } from './types.js';

export interface ConfigFlags {
  port?: string | number;
  host?: string;
}

const TOP_LEVEL = [
  'server',
  'database',
  'redis',
  'security',
  'oauth2',
  'media',
  'mail',
  'schemas',
  'locales',
  'webhooks',
  'realtime',
  'documents',
  'studio',
  'openapi',
  'metrics',
];
const SECURITY = [
  'jwtSecret',
  'adminUser',
  'tokenExpiry',
  'refreshTokenExpiry',
  'tokens',
  'passwordPolicy',
  'rateLimit',
  'session',
  'bcryptRounds',
  'cookie',
  'oauth',
  'validateUser',
  'assignRole',
  'passkey',
  'auditLog',
  'captcha',
  'encryptionKey',
  'mfa',
];
const DAY = 86_400_000;

/**
 * Merges defaults < config file < environment < CLI flags (docs/api.md, "Configuration"), validates the result and
 * freezes it. Every problem becomes one line of the ConfigError.
 */
export function resolveConfig(file: unknown, env: NodeJS.ProcessEnv, flags: ConfigFlags = {}): VellumConfig {
  const r = new ConfigReader();
  const root = r.object('', file, TOP_LEVEL);
  const server = r.object('server', root.server, [
    'port',
    'host',
    'basePath',
    'trustProxy',
    'cors',
    'logLevel',
    'bodyLimit',
    'publicUrl',
    'compression',
    'shutdownTimeoutMs',
  ]);
  const redis = r.object('redis', root.redis, ['url']);
  const security = r.object('security', root.security, SECURITY);
  const documents = r.object('documents', root.documents, [
    'publicRead',
    'responseCache',
    'countLimit',
    'scheduleRunner',
    'previewTokenTtl',
  ]);
  const openapi = r.object('openapi', root.openapi, ['public']);

  const portSource = flags.port !== undefined ? '--port' : env.PORT !== undefined ? 'PORT' : 'server.port';
  const port = r.int(portSource, flags.port ?? env.PORT ?? server.port, { def: 3000, min: 0, max: 65535 }) as number;
  let basePath = r.string('server.basePath', server.basePath, { def: '/api' }) as string;
  if (!/^\/[A-Za-z0-9._~/-]*$/.test(basePath)) r.problem('server.basePath', 'expected a path starting with "/"');
  basePath = basePath.replace(/\/+$/, '');

  const database = databaseSection(r, root.database, env);
  const locales = localesSection(r, root.locales);
  const redisUrl = r.string('REDIS_URL', env.REDIS_URL ?? redis.url);

  const jwtSecretSource = env.VELLUM_JWT_SECRET !== undefined ? 'VELLUM_JWT_SECRET' : 'security.jwtSecret';
  const jwtSecret = r.string(jwtSecretSource, env.VELLUM_JWT_SECRET ?? security.jwtSecret);
  if (jwtSecret !== undefined) checkJwtSecret(r, jwtSecretSource, jwtSecret);

  const tokens = r.object('security.tokens', security.tokens, ['accessTokenTtl']);
  const duration = (path: string, value: unknown, def: string): number => {
    const ms = parseDuration((value ?? def) as string);
    if (ms === undefined || (typeof value !== 'string' && typeof value !== 'number' && value !== undefined)) {
      r.problem(path, 'expected a duration such as "15m", "1h" or "7d"');
      return parseDuration(def) as number;
    }
    return ms;
  };
  const accessTokenTtlMs =
    tokens.accessTokenTtl !== undefined
      ? duration('security.tokens.accessTokenTtl', tokens.accessTokenTtl, '1h')
      : duration('security.tokenExpiry', security.tokenExpiry, '1h');
  const refreshTokenTtlMs = duration('security.refreshTokenExpiry', security.refreshTokenExpiry, '7d');

  const pp = r.object('security.passwordPolicy', security.passwordPolicy, [
    'minLength',
    'requireUppercase',
    'requireLowercase',
    'requireNumbers',
    'requireSpecial',
  ]);
  const mfa = r.object('security.mfa', security.mfa, ['trustedDeviceDays']);
  const encryptionKey = r.string('security.encryptionKey', security.encryptionKey);
  if (encryptionKey !== undefined && encryptionKey.length < 32) r.problem('security.encryptionKey', 'must be at least 32 characters');
  const session = r.object('security.session', security.session, ['maxConcurrent', 'revokeOnPasswordChange']);
  const rateLimit = r.object('security.rateLimit', security.rateLimit, ['login', 'api']);
  const limit = (name: 'login' | 'api') => {
    // Sign-in is limited by default (10 failures per 15 minutes); the API limit is off unless set.
    if (rateLimit[name] === undefined) return name === 'login' ? { windowMs: 900_000, max: 10 } : undefined;
    const o = r.object(`security.rateLimit.${name}`, rateLimit[name], ['windowMs', 'max']);
    return {
      windowMs: r.int(`security.rateLimit.${name}.windowMs`, o.windowMs, { def: 60_000, min: 1 }) as number,
      max: r.int(`security.rateLimit.${name}.max`, o.max, { def: 10, min: 1 }) as number,
    };
  };

  const config: VellumConfig = {
    server: {
      port,
      host: r.string(flags.host !== undefined ? '--host' : 'server.host', flags.host ?? env.HOST ?? server.host, {
        def: '0.0.0.0',
      }) as string,
      basePath,
      trustProxy: trustProxy(r, server.trustProxy),
      cors: corsSection(r, server.cors),
      logLevel: r.string('server.logLevel', env.LOG_LEVEL ?? server.logLevel, { def: 'info' }) as string,
      bodyLimit: r.int('server.bodyLimit', server.bodyLimit, { def: 1_048_576, min: 1024 }) as number,
      publicUrl: r.string('server.publicUrl', server.publicUrl),
      compression: compressionSection(r, server.compression),
      shutdownTimeoutMs: r.int('server.shutdownTimeoutMs', server.shutdownTimeoutMs, { def: 10_000, min: 0, max: 600_000 }) as number,
    },
    database,
    redis: redisUrl ? { url: redisUrl } : undefined,
    security: {
      jwtSecret,
      issuer: (root.oauth2 as { issuer?: string } | undefined)?.issuer ?? 'vellum',
      adminUser: adminUser(r, security.adminUser, env),
      accessTokenTtlMs,
      refreshTokenTtlMs,
      rememberMeTtlMs: Math.max(30 * DAY, refreshTokenTtlMs),
      passwordPolicy: {
        minLength: r.int('security.passwordPolicy.minLength', pp.minLength, { def: 10, min: 1 }) as number,
        requireUppercase: r.bool('security.passwordPolicy.requireUppercase', pp.requireUppercase, false),
        requireLowercase: r.bool('security.passwordPolicy.requireLowercase', pp.requireLowercase, false),
        requireNumbers: r.bool('security.passwordPolicy.requireNumbers', pp.requireNumbers, false),
        requireSpecial: r.bool('security.passwordPolicy.requireSpecial', pp.requireSpecial, false),
      },
      bcryptRounds: r.int('security.bcryptRounds', security.bcryptRounds, { def: 12, min: 4, max: 31 }) as number,
      session: {
        maxConcurrent: r.int('security.session.maxConcurrent', session.maxConcurrent, { min: 1 }),
        revokeOnPasswordChange: r.bool('security.session.revokeOnPasswordChange', session.revokeOnPasswordChange, true),
      },
      rateLimit: { login: limit('login'), api: limit('api') },
      validateUser: r.func('security.validateUser', security.validateUser),
      assignRole: r.func('security.assignRole', security.assignRole),
      cookie: cookieSection(r, security.cookie),
      oauth: oauthSection(r, security.oauth),
      passkey: passkeySection(r, security.passkey),
      auditLog: auditLogSection(r, security.auditLog),
      captcha: captchaSection(r, security.captcha),
      encryptionKey,
      mfa: { trustedDeviceDays: r.int('security.mfa.trustedDeviceDays', mfa.trustedDeviceDays, { def: 30, min: 1, max: 365 }) as number },
    },
    documents: {
      publicRead: r.bool('documents.publicRead', documents.publicRead, true),
      responseCache: r.bool('documents.responseCache', documents.responseCache, true),
      countLimit: r.int('documents.countLimit', documents.countLimit, { def: 10_000, min: 1, max: 10_000_000 }) as number,
      scheduleRunner: r.bool(
        env.DOCUMENTS_SCHEDULE_RUNNER !== undefined ? 'DOCUMENTS_SCHEDULE_RUNNER' : 'documents.scheduleRunner',
        env.DOCUMENTS_SCHEDULE_RUNNER ?? documents.scheduleRunner,
        true,
      ),
      previewTokenTtlMs: duration('documents.previewTokenTtl', documents.previewTokenTtl, '1h'),
    },
    openapi: { public: r.bool('openapi.public', openapi.public, true) },
    metrics: metricsSection(r, root.metrics, env),
    ...(locales ? { locales } : {}),
    schemas: validateSchemas(r, root.schemas, locales !== undefined),
    oauth2: oauth2Section(r, root.oauth2, typeof server.publicUrl === 'string' ? server.publicUrl : `http://localhost:${port}`),
    media: mediaSection(r, root.media, env),
    mail: mailSection(r, root.mail, env.SMTP_URL),
    webhooks: webhooksSection(r, root.webhooks, env),
    realtime: realtimeSection(r, root.realtime, redisUrl !== undefined, database.url),
    studio: optionalSection(r, 'studio', root.studio),
  };
  checkStructure(r, config.studio?.structure, new Set(config.schemas.map((x) => x.name)));
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return deepFreeze(config);
}

function adminUser(r: ConfigReader, raw: unknown, env: NodeJS.ProcessEnv): AdminUserConfig | undefined {
  const o = r.object('security.adminUser', raw, ['username', 'email', 'password', 'firstName', 'lastName']);
  const username = env.VELLUM_ADMIN_USERNAME ?? o.username;
  const password = env.VELLUM_ADMIN_PASSWORD ?? o.password;
  const email = env.VELLUM_ADMIN_EMAIL ?? o.email;
  if (username === undefined && password === undefined && email === undefined) return undefined;
  const result = {
    username: r.string('security.adminUser.username', username, { minLength: 1 }) as string,
    password: r.string('security.adminUser.password', password, { minLength: 1 }) as string,
    email: r.string('security.adminUser.email', email ?? `${String(username)}@localhost`) as string,
    firstName: r.string('security.adminUser.firstName', o.firstName),
    lastName: r.string('security.adminUser.lastName', o.lastName),
  };
  if (result.username === undefined) r.problem('security.adminUser.username', 'required when an admin user is configured');
  if (result.password === undefined) r.problem('security.adminUser.password', 'required when an admin user is configured');
  return result;
}

/** `server.trustProxy`: as Fastify takes it (true, hop count, or addresses/CIDRs). */
function trustProxy(r: ConfigReader, raw: unknown): boolean | string | number {
  if (raw === undefined || raw === null) return false;
  if (typeof raw === 'boolean' || typeof raw === 'string' || (typeof raw === 'number' && Number.isInteger(raw) && raw >= 0)) return raw;
  r.problem('server.trustProxy', 'expected true/false, a hop count or a comma-separated list of addresses');
  return false;
}

/** `mail {smtpUrl, from}`; `SMTP_URL` overrides the URL. */
function mailSection(r: ConfigReader, raw: unknown, envUrl: string | undefined): { smtpUrl?: string; from?: string } | undefined {
  if ((raw === undefined || raw === null) && !envUrl) return undefined;
  const o = r.object('mail', raw, ['smtpUrl', 'from']);
  const smtpUrl = r.string(envUrl ? 'SMTP_URL' : 'mail.smtpUrl', envUrl ?? o.smtpUrl);
  if (smtpUrl !== undefined && !/^smtps?:\/\//.test(smtpUrl))
    r.problem(envUrl ? 'SMTP_URL' : 'mail.smtpUrl', 'expected smtp://… or smtps://…');
  return { smtpUrl, from: r.string('mail.from', o.from) };
}

/** `security.auditLog {enabled, events}`: on by default, every event. */
function auditLogSection(r: ConfigReader, raw: unknown): { enabled: boolean; events: string[] } {
  const o = r.object('security.auditLog', raw, ['enabled', 'events']);
  const events = o.events === undefined ? [...AUDIT_EVENTS] : o.events;
  if (!Array.isArray(events) || !events.every((e) => (AUDIT_EVENTS as readonly string[]).includes(e))) {
    r.problem('security.auditLog.events', `expected a list of: ${AUDIT_EVENTS.join(', ')}`);
    return { enabled: r.bool('security.auditLog.enabled', o.enabled, true), events: [...AUDIT_EVENTS] };
  }
  return { enabled: r.bool('security.auditLog.enabled', o.enabled, true), events: events as string[] };
}

/** `studio.structure`: `[{title, items: [schemaName | {schema, title?}]}]`, naming registered schemas only. */
function checkStructure(r: ConfigReader, raw: unknown, schemas: Set<string>): void {
  if (raw === undefined) return;
  if (!Array.isArray(raw)) return r.problem('studio.structure', 'expected a list of groups {title, items}');
  raw.forEach((g: { title?: unknown; items?: unknown }, i) => {
    if (typeof g?.title !== 'string') r.problem(`studio.structure[${i}].title`, 'expected a string');
    if (!Array.isArray(g?.items)) return r.problem(`studio.structure[${i}].items`, 'expected a list of schema names');
    g.items.forEach((item: unknown, j) => {
      const name = typeof item === 'string' ? item : (item as { schema?: unknown })?.schema;
      if (typeof name !== 'string' || !schemas.has(name))
        r.problem(`studio.structure[${i}].items[${j}]`, `expected a registered schema name (got ${JSON.stringify(name)})`);
    });
  });
}

/** Sections that later features own: accepted as objects now, validated in full by their feature. */
function optionalSection(r: ConfigReader, path: string, raw: unknown): Record<string, unknown> | undefined {
  if (raw === undefined || raw === null) return undefined;
  return r.object(path, raw);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
