import type { Logger } from 'pino';
import type { VellumConfig } from '../config/types.js';
import type { Mailer } from '../mail/mailer.js';
import type { CounterStore } from '../storage/counters/counter-store.js';
import type { AttemptLimiter } from './security/attempt-limiter.js';
import type { Database } from '../storage/database.js';
import type { StoredApiToken } from '../storage/identity/api-tokens-store.js';
import type { TtlCache } from './shared/ttl-cache.js';
import type { FileStore } from '../media/storage/file-store.js';
import type { ContentChanges } from './shared/content-changes.js';
import type { ChangeBus } from './events/change-bus.js';
import type { PresenceRegistry } from './presence/presence-registry.js';
import type { ActiveWebhooks } from './webhooks/active-webhooks.js';
import type { DeliveryQueue } from './webhooks/delivery-queue.js';
import type { ListCache } from './documents/list-cache.js';
import type { JwtKey } from './identity/access-tokens.js';
import type { SecretBox } from './mfa/secret-box.js';
import type { SchemaRegistry } from './schemas/schema-registry.js';
import type { Metrics } from '../metrics/metrics.js';

/**
 * What operations need besides the caller: built once at start-up and shared by HTTP, CLI and
 * tests. `now` is injectable so tests can freeze the clock.
 */
export interface Services {
  database: Database;
  config: VellumConfig;
  schemas: SchemaRegistry;
  now(): Date;
  /** HS256 key for access tokens (configured or generated and stored once). */
  jwtKey: JwtKey;
  /**
   * API tokens by hash, for a few seconds: spares the lookup on busy integrations. Revocation on
   * this node evicts at once; other nodes see it within the TTL.
   */
  apiTokenCache: TtlCache<StoredApiToken>;
  /** Content write versions; caches of derived content check them. */
  changes: ContentChanges;
  /** Committed changes as events (documents, media, users), published after commit: the realtime stream listens. */
  events: ChangeBus;
  /** Who has which document open, on every node: in memory, kept in step through `events` (docs/realtime.md, "Presence"). */
  presence: PresenceRegistry;
  /** The active webhooks and what they subscribe to, cached; `invalidate()` after changing one. */
  activeWebhooks: ActiveWebhooks;
  /**
   * Wakes this node's delivery worker: the outbox calls `deliveryQueue.wake()` after committing
   * deliveries, so they go out at once rather than at the next poll (a no-op without a worker).
   */
  deliveryQueue: DeliveryQueue;
  /** List totals and deep-page anchors per query, valid while their type's version holds. */
  listCache: ListCache;
  mailer: Mailer;
  /** Failed sign-ins per client IP and per account (`security.rateLimit.login`). */
  loginLimiter: AttemptLimiter;
  /** Wrong second-factor codes (TOTP, backup codes) per client IP and per account (same rule as sign-in). */
  mfaLimiter: AttemptLimiter;
  /** User codes of the device flow that named no pending request, per user and per client IP (a fixed rule: docs/oauth2.md). */
  deviceCodeLimiter: AttemptLimiter;
  /** Encrypts secrets kept at rest (TOTP secrets, trusted device ids). */
  secretBox: SecretBox;
  /** Password-reset requests per client IP and per address (same rule as sign-in). */
  resetLimiter: AttemptLimiter;
  /** Where the limiters count: memory, or Redis with `REDIS_URL` so every node shares them. */
  counters: CounterStore;
  log: Logger;
  /** Where media bytes live: a local directory or an S3 bucket. */
  files: FileStore;
  /** Small stored files (thumbnails) by key, served from memory; at most 256 × 32 KiB. */
  smallFiles: TtlCache<Buffer>;
  /** What the service measures, scraped at `GET /metrics` (docs/operations.md, "Metrics"). */
  metrics: Metrics;
}
