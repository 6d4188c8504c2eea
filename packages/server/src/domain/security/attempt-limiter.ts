import { errors } from '../../errors.js';
import type { CounterStore } from '../../storage/counters/counter-store.js';

export interface LimitRule {
  windowMs: number;
  max: number;
}

/**
 * Counts attempts per key (client IP, target account or email: each on its own, so varying one
 * of them never buys fresh attempts) and refuses with 429 once any key reached `max` in its window.
 */
export class AttemptLimiter {
  constructor(
    private readonly store: CounterStore,
    private readonly rule: LimitRule | undefined,
    private readonly name: string,
  ) {}

  /** 429 `RATE_LIMITED` with `retryAfter` (seconds) when any key is spent. */
  async check(keys: readonly string[], now: number): Promise<void> {
    if (!this.rule) return;
    for (const key of keys) {
      const { count, resetAt } = await this.store.get(`${this.name}:${key}`, now);
      if (count >= this.rule.max) {
        throw errors.rateLimited(Math.max(1, Math.ceil((resetAt - now) / 1000)), 'Too many attempts; try again later');
      }
    }
  }

  /** The same test without the refusal, for work that is skipped rather than refused once spent. */
  async allows(keys: readonly string[], now: number): Promise<boolean> {
    if (!this.rule) return true;
    for (const key of keys) if ((await this.store.get(`${this.name}:${key}`, now)).count >= this.rule.max) return false;
    return true;
  }

  async hit(keys: readonly string[], now: number): Promise<void> {
    if (!this.rule) return;
    for (const key of keys) await this.store.increment(`${this.name}:${key}`, this.rule.windowMs, now);
  }

  async clear(key: string): Promise<void> {
    if (this.rule) await this.store.reset(`${this.name}:${key}`);
  }
}
