import { Redis, type RedisOptions } from 'ioredis';

/** The longest a caller waits on a Redis that holds the connection open but does not answer. */
const ANSWER_MS = 1_000;

/**
 * A Redis connection that never makes a caller wait for Redis to come back: no offline queue and
 * no retries, so while Redis is down a command fails at once (and one cut off by a lost
 * connection fails when the loss is seen) instead of waiting out the reconnect backoff. ioredis
 * reconnects by itself; callers fall back meanwhile (docs/api.md, "Rate limits"; docs/realtime.md,
 * "Several nodes").
 */
export function connectRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, ...options });
}

/**
 * The command's answer, or a rejection once it took longer than `ms`. The deadline is checked
 * only after the event loop's next I/O poll: a reply that arrived while the loop was busy (a
 * long synchronous task) is read first, so a blocked process does not take Redis for gone.
 * (ioredis's own `commandTimeout` runs in the timers phase, before that poll.)
 */
export function answerWithin<T>(command: Promise<T>, ms = ANSWER_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => setImmediate(() => reject(new Error(`Redis did not answer within ${ms} ms`))), ms);
    command.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/** Connects, asks PING, disconnects (`vellum doctor`): resolves when Redis answered, rejects with why not. */
export async function pingRedis(url: string, ms = 3_000): Promise<void> {
  const redis = connectRedis(url, { lazyConnect: true, retryStrategy: () => null });
  let lastError: unknown;
  redis.on('error', (err: unknown) => (lastError = err));
  try {
    await answerWithin(redis.connect(), ms);
    await answerWithin(redis.ping(), ms);
  } catch (err) {
    throw new Error('Redis is not reachable', { cause: lastError ?? err });
  } finally {
    redis.disconnect();
  }
}
