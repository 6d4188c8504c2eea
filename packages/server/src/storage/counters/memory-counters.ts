import type { CounterStore } from './counter-store.js';

/** Fixed windows in a Map; expired windows are dropped when touched and swept now and then. */
export function memoryCounters(maxKeys = 100_000): CounterStore {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const sweep = (now: number) => {
    for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
  };
  return {
    async get(key, now) {
      const w = windows.get(key);
      return w && w.resetAt > now ? { ...w } : { count: 0, resetAt: now };
    },
    async increment(key, windowMs, now) {
      let w = windows.get(key);
      if (!w || w.resetAt <= now) {
        if (windows.size >= maxKeys) sweep(now);
        w = { count: 0, resetAt: now + windowMs };
        windows.set(key, w);
      }
      w.count++;
      return { ...w };
    },
    async reset(key) {
      windows.delete(key);
    },
    async close() {
      windows.clear();
    },
  };
}
