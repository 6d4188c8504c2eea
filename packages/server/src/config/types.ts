import type { FieldCondition, ImageTransform } from '@vellum/client';
import type { OAuthGrant, OAuthScope } from './oauth-scopes.js';
import type { RealtimeConfig } from './realtime-section.js';
import type { LocalesConfig } from './locales-section.js';
/** Field and schema definitions as written in the config (docs/api.md, "Schemas"). */
export type FieldType =
  | 'string'
  | 'text'
  | 'email'
  | 'url'
  | 'slug'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'select'
  | 'markdown'
  | 'richtext'
  | 'reference'
  | 'image'
  | 'file'
  | 'array'
  | 'object'
  | 'blocks'
  | 'geopoint'
  | 'json';

export interface FieldDef {
  name: string;
  title?: string;
  type: FieldType;
  required?: boolean;
  unique?: boolean;
  indexed?: boolean;
  default?: unknown;
  description?: string;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  min?: number;
  max?: number;
  options?: string[];
  source?: string;
  to?: string | string[];
  accept?: string[];
  /** An array's item definition, or a blocks field's block types. */
  of?: (Omit<FieldDef, 'name'> & { name?: string }) | BlockDef[];
  minItems?: number;
  maxItems?: number;
  fields?: FieldDef[];
  /** A top-level field with one value per locale (docs/localization.md); other fields are shared. */
  localized?: boolean;
  /** The studio's form only (docs/studio.md, "Form layout"): the tab it is in, and when it is hidden or read-only. */
  group?: string;
  hidden?: boolean | FieldCondition;
  readOnly?: boolean | FieldCondition;
}

/** One block type of a `blocks` field: its items carry `_type: name`. */
export interface BlockDef {
  name: string;
  title?: string;
  fields: FieldDef[];
}

export interface SchemaDef {
  name: string;
  title: string;
  type?: 'document' | 'singleton';
  public?: boolean;
  fields: FieldDef[];
  /** The studio's preview link and `POST …/preview`'s `url` (docs/preview.md): a template of field paths. */
  preview?: { url: string };
  /** The tabs of the studio's form, fields naming one in `group` (docs/studio.md, "Form layout"). */
  groups?: Array<{ name: string; title?: string }>;
}

export interface PasswordPolicy {
  minLength: number;
  requireUppercase: boolean;
  requireLowercase: boolean;
  requireNumbers: boolean;
  requireSpecial: boolean;
}

export interface AdminUserConfig {
  username: string;
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
}

export interface UserHookInput {
  username: string;
  email: string;
  firstName?: string;
  lastName?: string;
  role: string;
}

/** `server.cors`: the origins allowed besides the studio's own (`true`: any), and whether they may send credentials. */
export interface CorsConfig {
  origins: true | string[];
  credentials: boolean;
}

/** `security.passkey`: the WebAuthn relying party; `origins` are exact browser origins. */
export interface PasskeyConfig {
  enabled: boolean;
  rpId: string;
  rpName: string;
  origins: string[];
}

/** `security.oauth`: one OpenID Connect provider, found by discovery from `issuer`. */
export interface IdpConfig {
  issuer: string;
  clientId: string;
  /** Absent: a public client (PKCE alone). */
  clientSecret?: string;
  redirectUri: string;
  /** Shown in `GET /auth/oauth/status`; the issuer's host when unset. */
  name: string;
  autoCreateUsers: boolean;
  defaultRole: string;
}

/** A client registered under `oauth2.clients` (docs/oauth2.md). No `clientSecret`: a public client. */
export interface OAuthClientConfig {
  clientId: string;
  name: string;
  redirectUris: string[];
  clientSecret?: string;
  grants: OAuthGrant[];
  scopes: OAuthScope[];
}

/** The authorization server; `enabled: false` (the default) answers 501 on its endpoints. */
export interface OAuth2Config {
  enabled: boolean;
  /** No trailing slash: `<issuer>/api/auth/token`, `<issuer>/studio/auth/device`. */
  issuer: string;
  accessTokenTtlMs: number;
  refreshTokenTtlMs: number;
  clients: OAuthClientConfig[];
}

/** The resolved, validated and frozen configuration every layer reads. */
export interface VellumConfig {
  server: {
    port: number;
    host: string;
    basePath: string;
    trustProxy: boolean | string | number;
    cors: CorsConfig;
    logLevel: string;
    bodyLimit: number;
    publicUrl?: string;
    /** Response compression (docs/api.md, "Compression"): on by default, for bodies of at least `minBytes`. */
    compression: { enabled: boolean; minBytes: number };
    /** On SIGTERM/SIGINT, how long requests in flight may take to finish before the process exits anyway (docs/operations.md, "Shutdown"). */
    shutdownTimeoutMs: number;
  };
  database: DatabaseConfig;
  redis?: { url: string };
  security: {
    jwtSecret?: string;
    issuer: string;
    adminUser?: AdminUserConfig;
    /** Access-token lifetime in ms (`tokens.accessTokenTtl` wins over `tokenExpiry`). */
    accessTokenTtlMs: number;
    refreshTokenTtlMs: number;
    rememberMeTtlMs: number;
    passwordPolicy: PasswordPolicy;
    bcryptRounds: number;
    session: { maxConcurrent?: number; revokeOnPasswordChange: boolean };
    rateLimit: {
      login?: { windowMs: number; max: number };
      api?: { windowMs: number; max: number };
    };
    validateUser?: (user: UserHookInput) => unknown;
    assignRole?: (user: UserHookInput) => unknown;
    /** Sections owned by later features; kept as given so configs written for them load. */
    /** Cookie sessions for the studio; absent: bearer tokens only. */
    cookie?: { secure: boolean; httpOnly: true; sameSite: 'Strict' | 'Lax' | 'None'; maxAge?: number };
    /** The identity provider (OpenID Connect); absent: none. */
    oauth?: IdpConfig;
    /** Passkeys (WebAuthn); absent: off. */
    passkey?: PasskeyConfig;
    auditLog: { enabled: boolean; events: readonly string[] };
    /** Key material for secrets kept encrypted at rest (TOTP secrets); the JWT key when unset. */
    encryptionKey?: string;
    /** Multi-factor sign-in: how long a trusted device skips the second factor. */
    mfa: { trustedDeviceDays: number };
    captcha?: { provider: 'turnstile' | 'hcaptcha' | 'recaptcha'; secret: string; verifyUrl: string };
  };
  /**
   * `responseCache`: keep rendered document reads until the next write (on by default).
   * `countLimit`: a list whose filter has no maintained count counts at most this many matches;
   * past it `meta.total` is a lower bound (docs/api.md, "Totals").
   * `scheduleRunner`: run due schedules in this process (on by default; docs/schedules.md).
   */
  documents: {
    publicRead: boolean;
    responseCache: boolean;
    countLimit: number;
    /** How long a preview token lives (`documents.previewTokenTtl`, docs/preview.md). */
    previewTokenTtlMs: number;
    /** Whether this node runs due schedules (`documents.scheduleRunner`, docs/schedules.md). */
    scheduleRunner: boolean;
  };
  /** `public`: `GET /openapi.json` and `/docs` answer anyone (the default); false: they need `studio:access`. */
  openapi: { public: boolean };
  /** `GET /metrics` (docs/operations.md, "Metrics"): on by default for `settings:read`; `token` lets a scraper in. */
  metrics: { enabled: boolean; token?: string };
  /** `locales` (docs/localization.md); absent: content has one language. */
  locales?: LocalesConfig;
  schemas: SchemaDef[];
  oauth2: OAuth2Config;
  media: MediaConfig;
  mail?: { smtpUrl?: string; from?: string };
  webhooks: WebhooksConfig;
  /** The event stream `GET /events` and how events travel between nodes (docs/realtime.md). */
  realtime: RealtimeConfig;
  studio?: Record<string, unknown>;
}

/** `webhooks`: delivery of the outbox (docs/webhooks.md, "Configuration"). */
export interface WebhooksConfig {
  /** Deliver to loopback, private and other non-public addresses too (net/guarded-request.ts). */
  allowPrivateNetworks: boolean;
  /** One deadline per attempt: resolving, connecting and the answer. */
  timeoutMs: number;
  /** The wait before each retry; attempts = 1 + its length. */
  retryScheduleMs: readonly number[];
  /** Failed attempts in a row that switch a hook off. */
  disableAfterFailures: number;
  /** Run the delivery worker on this node. */
  worker: boolean;
  /** Succeeded and dead deliveries older than this are deleted. */
  retentionMs: number;
}

/** Where the data lives, and how long the service waits for it before answering 503 (docs/api.md). */
export interface DatabaseConfig {
  /** `sqlite:<path>` or `postgres://…`. */
  url: string;
  /** PostgreSQL: opening a connection, or waiting for a free one in the pool, gives up after this. */
  connectTimeoutMs: number;
  /** PostgreSQL: the server's `statement_timeout`; the client gives up one second later, so a silent network cannot hang a request. */
  statementTimeoutMs: number;
  /** PostgreSQL: TCP keep-alive probes on pooled connections, the first after `keepAliveInitialDelayMs` idle. */
  keepAlive: boolean;
  keepAliveInitialDelayMs: number;
  /** SQLite: how long a write waits for another process's lock (`busy_timeout`). */
  busyTimeoutMs: number;
}

/** One generated image variant; `thumb` and `medium` by default (docs/api.md, "Media"). */
export interface MediaVariantConfig {
  name: string;
  width?: number;
  height?: number;
  fit: 'cover' | 'contain' | 'inside' | 'outside' | 'fill';
  format: 'webp' | 'jpeg' | 'png' | 'avif';
  quality?: number;
}

export interface MediaConfig {
  storage: 'local' | 's3';
  /** Local storage directory (relative paths from the working directory). */
  dir: string;
  s3?: {
    bucket: string;
    region?: string;
    endpoint?: string;
    forcePathStyle: boolean;
    accessKeyId?: string;
    secretAccessKey?: string;
    prefix?: string;
  };
  /** Bytes; larger uploads are refused with 413. */
  maxFileSize: number;
  /** Exact MIME types or prefixes ending in `/`. */
  allowedTypes: readonly string[];
  variants: readonly MediaVariantConfig[];
  /** Decompression-bomb guard: images with more pixels are refused before decoding. */
  maxPixels: number;
  /** When set, `url` and variant paths point there (a CDN or public bucket) instead of the service. */
  publicBaseUrl?: string;
  /** Anonymous callers may list and read media (the spec's default). */
  publicRead: boolean;
  /** Image transforms on request (docs/media.md, "Image transforms"). */
  transforms: MediaTransformsConfig;
}

/**
 * A named transform, always allowed: `?preset=<name>` (docs/media.md, "Image transforms"). The
 * client's `ImageTransform` owns the parameters; a preset takes the ones that shape the image.
 */
export type TransformPreset = Pick<ImageTransform, 'w' | 'h' | 'fit' | 'format' | 'q'>;

export interface MediaTransformsConfig {
  presets: Readonly<Record<string, TransformPreset>>;
  /** Signs free parameters (`&sig=`); without it only presets are served, unless `public`. */
  secret?: string;
  /** Free parameters without a signature: anyone may ask for any size within the limits. */
  public: boolean;
  maxWidth: number;
  maxHeight: number;
  /** Output pixels (width × height) at most. */
  maxPixels: number;
}

/**
 * What a `vellum.config.{ts,js,json}` holds (docs/api.md, "Configuration"): the content model is
 * typed field by field; the other sections are checked when the server starts (one line per
 * problem), so they are typed loosely here.
 */
export interface VellumConfigInput {
  schemas?: SchemaDef[];
  locales?: Array<{ code: string; name?: string; fallback?: string }>;
  server?: Record<string, unknown>;
  database?: Record<string, unknown>;
  redis?: Record<string, unknown>;
  security?: Record<string, unknown>;
  media?: Record<string, unknown>;
  documents?: Record<string, unknown>;
  metrics?: { enabled?: boolean; token?: string } | false;
  [section: string]: unknown;
}
