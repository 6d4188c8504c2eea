import { answerWithin, connectRedis } from '../redis-connection.js';
import type { CounterStore } from './counter-store.js';
import { memoryCounters } from './memory-counters.js';

const PREFIX = 'vellum:rl:';
/** While Redis is away, how often a connection that looks ready is asked whether Redis answers again. */
const PROBE_MS = 1_000;

/** What the counters tell the log: one warning when Redis goes away, one line when it is back. */
export interface CounterNotes {
  warn(message: string, err?: unknown): void;
  info(message: string): void;
}

/**
 * Counters shared by every node through Redis: INCR and PEXPIRE (only when the window opens) in
 * one MULTI, so concurrent hits on several nodes are counted exactly. While Redis cannot answer,
 * each node counts in its own memory (docs/api.md, "Rate limits"), so sign-in keeps working and
 * keeps being limited, per node; counting goes back to Redis once it answers again. Resolves once
 * the first connection is made or has failed.
 */
export async function openRedisCounters(url: string, notes: CounterNotes): Promise<CounterStore> {
  // A request waits on Redis at most `answerWithin`'s deadline; a Redis that is down costs no wait.
  const redis = connectRedis(url);
  const local = memoryCounters();
  let state: 'starting' | 'shared' | 'away' = 'starting';
  let closing = false;
  let probing = false;
  let lastError: unknown;
  let probeTimer: NodeJS.Timeout | undefined;
  let started: () => void = () => undefined;
  const start = new Promise<void>((resolve) => (started = resolve));

  const away = (err: unknown) => {
    if (closing || state === 'away') return;
    state = 'away';
    notes.warn('rate limits: Redis is unreachable; this node counts sign-in attempts on its own until Redis is back', err);
    probeTimer = setInterval(probe, PROBE_MS).unref();
    started();
  };
  const shared = () => {
    if (closing || state === 'shared') return;
    if (state === 'away') notes.info('rate limits: Redis is back; counting in Redis again');
    state = 'shared';
    clearInterval(probeTimer);
    probeTimer = undefined;
    started();
  };
  // A ready connection is not proof that Redis answers (the command that failed may have timed out on it).
  const probe = () => {
    if (closing || probing || state !== 'away' || redis.status !== 'ready') return;
    probing = true;
    answerWithin(redis.ping())
      .then(shared, () => undefined)
      .finally(() => (probing = false));
  };

  // ioredis reconnects by itself; every failed attempt emits 'error' and 'close'. Only the first
  // loss of an outage is told; an 'error' without a listener would end the process.
  redis.on('error', (err: unknown) => (lastError = err));
  redis.on('close', () => away(lastError));
  redis.on('ready', () => (state === 'starting' ? shared() : probe()));

  /** Through Redis while it answers; in this node's memory while it does not. */
  const use = async <T>(viaRedis: () => Promise<T>, viaMemory: () => Promise<T>): Promise<T> => {
    if (state === 'shared') {
      try {
        return await viaRedis();
      } catch (err) {
        away(err);
      }
    }
    return viaMemory();
  };

  await start;
  return {
    get: (key, now) =>
      use(
        async () => {
          const [count, ttl] = await answerWithin(
            redis
              .multi()
              .get(PREFIX + key)
              .pttl(PREFIX + key)
              .exec(),
          ).then(unwrap);
          return { count: Number(count ?? 0), resetAt: now + Math.max(0, Number(ttl)) };
        },
        () => local.get(key, now),
      ),
    increment: (key, windowMs, now) =>
      use(
        async () => {
          const k = PREFIX + key;
          const [count, , ttl] = await answerWithin(redis.multi().incr(k).pexpire(k, windowMs, 'NX').pttl(k).exec()).then(unwrap);
          return { count: Number(count), resetAt: now + Math.max(0, Number(ttl)) };
        },
        () => local.increment(key, windowMs, now),
      ),
    shared: () => state === 'shared',
    async reset(key) {
      // Both: a window counted here during an outage must not outlive the success that reset it.
      await local.reset(key);
      await use(
        async () => void (await answerWithin(redis.del(PREFIX + key))),
        async () => undefined,
      );
    },
    async close() {
      closing = true;
      clearInterval(probeTimer);
      await redis.quit().catch(() => redis.disconnect());
      await local.close();
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
