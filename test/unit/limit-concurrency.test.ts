import { describe, expect, it } from 'vitest';
import { limitConcurrency } from '../../packages/server/src/media/limit-concurrency.js';

describe('limitConcurrency', () => {
  it('never runs more than n at once, and a failure frees its slot', async () => {
    const limit = limitConcurrency(2);
    let running = 0;
    let peak = 0;
    const task = (fail: boolean) =>
      limit(async () => {
        peak = Math.max(peak, ++running);
        // A turn of the event loop: time for every other task the limit would let in to start.
        await new Promise((resolve) => setImmediate(resolve));
        running--;
        if (fail) throw new Error('boom');
        return 'ok';
      });
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => task(i % 3 === 0)));
    expect(peak).toBe(2);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(6);
  });
});
