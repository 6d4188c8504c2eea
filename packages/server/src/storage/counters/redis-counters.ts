import { Redis } from 'ioredis';
import type { CounterStore } from './counter-store.js';

const PREFIX = 'vellum:rl:';

/**
 * Counters shared by every node through Redis: INCR and PEXPIRE (only when the window opens) in
 * one MULTI, so concurrent hits on several nodes are counted exactly.
 */
export function redisCounters(url: string): CounterStore {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
  // Connection errors surface on the commands that need Redis; an 'error' without a listener would end the process.
  redis.on('error', () => undefined);
  return {
    async get(key, now) {
      const [count, ttl] = await redis
        .multi()
        .get(PREFIX + key)
        .pttl(PREFIX + key)
        .exec()
        .then(unwrap);
      return { count: Number(count ?? 0), resetAt: now + Math.max(0, Number(ttl)) };
    },
    async increment(key, windowMs, now) {
      const k = PREFIX + key;
      const [count, , ttl] = await redis.multi().incr(k).pexpire(k, windowMs, 'NX').pttl(k).exec().then(unwrap);
      return { count: Number(count), resetAt: now + Math.max(0, Number(ttl)) };
    },
    async reset(key) {
      await redis.del(PREFIX + key);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

function unwrap(results: Array<[Error | null, unknown]> | null): unknown[] {
  if (!results) throw new Error('redis transaction aborted');
  return results.map(([err, value]) => {
    if (err) throw err;
    return value;
  });
}
