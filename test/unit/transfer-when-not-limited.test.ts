import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenNotLimited } from '../../packages/cli/src/transfer/when-not-limited.js';

const limited = (retryAfter: number) => Object.assign(new Error('429 RATE_LIMITED'), { status: 429, error: { retryAfter } });

describe('whenNotLimited (export and import slow down on 429)', () => {
  afterEach(() => vi.useRealTimers());

  it('calls again after the seconds the server asks for, and returns the answer', async () => {
    vi.useFakeTimers();
    const call = vi.fn().mockRejectedValueOnce(limited(3)).mockResolvedValueOnce('ok');
    const result = whenNotLimited(call);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(call).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBe('ok');
    expect(call).toHaveBeenCalledTimes(2);
  });

  it('passes other errors on at once, and a 429 after five retries', async () => {
    const other = Object.assign(new Error('422'), { status: 422 });
    await expect(whenNotLimited(() => Promise.reject(other))).rejects.toBe(other);

    vi.useFakeTimers();
    const call = vi.fn().mockRejectedValue(limited(1));
    const result = whenNotLimited(call).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await result).toMatchObject({ status: 429 });
    expect(call).toHaveBeenCalledTimes(6);
  });
});
