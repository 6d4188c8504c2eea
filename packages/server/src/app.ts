import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { createMailer } from './mail/mailer.js';
import { AttemptLimiter } from './domain/security/attempt-limiter.js';
import { DEVICE_CODE_GUESSES } from './domain/oauth2/user-codes.js';
import { memoryCounters } from './storage/counters/memory-counters.js';
import type { VellumConfig } from './config/types.js';
import { ensureAdminUser, loadJwtKey, prepareClaim, warnOnExampleAdminPassword } from './domain/identity/bootstrap.js';
import { SchemaRegistry } from './domain/schemas/schema-registry.js';
import type { Services } from './domain/services.js';
import { TtlCache } from './domain/shared/ttl-cache.js';
import { ContentChanges } from './domain/shared/content-changes.js';
import { ListCache } from './domain/documents/list-cache.js';
import { buildHttpServer } from './http/server.js';
import { loadSecretBox } from './domain/mfa/secret-box.js';
import { openDatabase } from './storage/database.js';
import { migrateToLatest } from './storage/migrations/index.js';
import { syncFieldIndexes } from './storage/documents/schema-indexes.js';
import type { StoredApiToken } from './storage/identity/api-tokens-store.js';
import { mediaStorage, openFileStore } from './media/storage/open-file-store.js';
import { sweepSpool } from './media/spool-upload.js';
import { LocalChangeBus, type ChangeBus } from './domain/events/change-bus.js';
import { SharedChangeBus } from './domain/events/shared-change-bus.js';
import { applyRemoteChange, readEventData } from './domain/events/remote-changes.js';
import { PresenceRegistry } from './domain/presence/presence-registry.js';
import { PRESENCE_TTL_MS } from './domain/presence/presence.js';
import { openMessageChannel } from './storage/pubsub/open-message-channel.js';
import { ActiveWebhooks } from './domain/webhooks/active-webhooks.js';
import { listActiveWebhooks } from './storage/webhooks/webhooks-store.js';
import { DeliveryQueue } from './domain/webhooks/delivery-queue.js';
import { startWebhookWorker, type WebhookWorker } from './jobs/webhook-worker.js';
import { startScheduleRunner, type ScheduleRunner } from './jobs/schedule-runner.js';
import { openMetrics } from './open-metrics.js';

export interface App {
  server: FastifyInstance;
  services: Services;
  /** The first-boot claim token, when the instance has no users and no configured admin. */
  claimToken?: string;
  close(): Promise<void>;
}

export interface AppOptions {
  /** Log settings; none (the default in tests) keeps the service silent. */
  logger?: { level?: string; stream?: { write(line: string): void } };
  now?: () => Date;
}

/**
 * Start-up in order: database and migrations, schema indexes, the signing key, the first admin
 * (or a claim token), then the HTTP server. Nothing listens until all of it has worked.
 */
export async function createApp(config: VellumConfig, opts: AppOptions = {}): Promise<App> {
  // Asynchronous writes: a request does not wait for its log line's write(2); lines written while
  // one is pending go out together. pino flushes what is left when the process exits.
  const log = opts.logger
    ? pino({ level: opts.logger.level ?? 'info' }, opts.logger.stream ?? pino.destination({ dest: 1, sync: false }))
    : pino({ enabled: false });
  const database = await openDatabase(config.database.url, config.database);
  // ioredis (about 7 MB of memory) is loaded only by instances that use Redis.
  // While Redis is away each node counts on its own, and says so once (docs/api.md, "Rate limits").
  const counterNotes = {
    warn: (message: string, err?: unknown) => log.warn({ err }, message),
    info: (message: string) => log.info(message),
  };
  const counters = config.redis
    ? await (await import('./storage/counters/redis-counters.js')).openRedisCounters(config.redis.url, counterNotes)
    : memoryCounters();
  let files: Services['files'] | undefined;
  let events: ChangeBus | undefined;
  try {
    files = await openFileStore(mediaStorage(config.media));
    // Temp files of uploads cut short by a crash; in the background, it never delays start-up.
    void sweepSpool().catch((err: unknown) => log.warn({ err }, 'media: could not sweep old upload temp files'));
    await migrateToLatest(database);
    const schemas = new SchemaRegistry(config.schemas);
    await syncFieldIndexes(database, schemas.indexSpecs(config.locales));
    // Several nodes share changes over the channel `realtime.fanout` names; one node needs none.
    // The shared bus reads through `services`, which exists by the time a message arrives.
    const shared = new SharedChangeBus({
      fill: (event) => readEventData(services, event),
      remote: (event) => applyRemoteChange(services, event),
      warn: (message, err) => log.warn({ err }, message),
    });
    const channel = await openMessageChannel(database, config, {
      onMessage: (payload) => shared.receive(payload),
      onWarning: (message, err) => log.warn({ err }, message),
      onRestored: (message) => log.info(message),
    });
    if (channel) shared.connect(channel);
    events = channel ? shared : new LocalChangeBus();
    const activeWebhooks = new ActiveWebhooks(listActiveWebhooks, 5_000);
    // Another node changed a webhook (this node's own changes invalidate at once, and again here: harmless).
    events.onWebhooksChanged(() => activeWebhooks.invalidate());
    const now = opts.now ?? (() => new Date());
    const presence = new PresenceRegistry(PRESENCE_TTL_MS, () => now().getTime());
    events.onPresence((message) => presence.apply(message));
    const services: Services = {
      database,
      config,
      schemas,
      now,
      jwtKey: await loadJwtKey(database, config),
      apiTokenCache: new TtlCache<StoredApiToken>(5_000, 10_000),
      changes: new ContentChanges(),
      events,
      presence,
      activeWebhooks,
      deliveryQueue: new DeliveryQueue(),
      listCache: new ListCache(2_000, 1_000),
      mailer: createMailer(config.mail, (msg) => log.warn(msg)),
      counters,
      loginLimiter: new AttemptLimiter(counters, config.security.rateLimit.login, 'login'),
      resetLimiter: new AttemptLimiter(counters, config.security.rateLimit.login, 'reset'),
      mfaLimiter: new AttemptLimiter(counters, config.security.rateLimit.login, 'mfa'),
      deviceCodeLimiter: new AttemptLimiter(counters, DEVICE_CODE_GUESSES, 'device'),
      secretBox: await loadSecretBox(database, config),
      log,
      files,
      smallFiles: new TtlCache<Buffer>(60_000, 256),
      metrics: openMetrics(config, database),
    };
    await ensureAdminUser(services);
    await warnOnExampleAdminPassword(services);
    const claimToken = await prepareClaim(services);
    const server = buildHttpServer(services);
    await server.ready();
    // Last, once everything it needs is up; `webhooks.worker: false` leaves delivery to other nodes.
    const worker: WebhookWorker | undefined = config.webhooks.worker ? startWebhookWorker(services) : undefined;
    // `documents.scheduleRunner: false` leaves scheduled publishing to other nodes (docs/schedules.md).
    const runner: ScheduleRunner | undefined = config.documents.scheduleRunner ? startScheduleRunner(services) : undefined;
    return {
      server,
      services,
      claimToken,
      close: async () => {
        await server.close();
        // Before the database closes: the attempts in flight still record their outcome.
        await worker?.stop();
        // Before the database closes: the schedule being run still writes its outcome.
        await runner?.stop();
        await events?.close();
        presence.close();
        await counters.close();
        await files?.close();
        await database.close();
        log.flush();
      },
    };
  } catch (err) {
    await events?.close().catch(() => undefined);
    await counters.close().catch(() => undefined);
    await files?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw err;
  }
}
