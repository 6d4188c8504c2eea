import { describe, expect, it } from 'vitest';
import { attemptOutcome, nextAttemptAt } from '../../packages/server/src/domain/webhooks/attempt-outcome.js';

/** What an attempt's result means for the delivery (docs/webhooks.md, "Retries"). */
describe('attemptOutcome', () => {
  const answered = (status: number) => attemptOutcome({ ok: true, status, durationMs: 12, bodySnippet: '' });

  it('2xx is delivered', () => {
    for (const s of [200, 201, 202, 204, 299]) expect(answered(s)).toEqual({ kind: 'delivered', statusCode: s, durationMs: 12 });
  });

  it('5xx, 429 and 408 are retried; other 4xx and odd statuses are final', () => {
    for (const s of [500, 502, 503, 504, 429, 408])
      expect(answered(s)).toMatchObject({ kind: 'retryable', statusCode: s, error: `HTTP ${s}` });
    for (const s of [400, 401, 403, 404, 410, 413, 422, 100]) expect(answered(s)).toMatchObject({ kind: 'final', statusCode: s });
  });

  it('timeouts, connection and DNS failures are retried', () => {
    expect(attemptOutcome({ ok: false, kind: 'timeout', durationMs: 10_000 })).toEqual({
      kind: 'retryable',
      statusCode: null,
      durationMs: 10_000,
      error: 'timed out after 10000 ms',
    });
    expect(
      attemptOutcome({
        ok: false,
        kind: 'connection',
        code: 'ECONNREFUSED',
        message: 'connect ECONNREFUSED 203.0.113.9:443',
        durationMs: 3,
      }),
    ).toMatchObject({ kind: 'retryable', error: 'connection failed (ECONNREFUSED): connect ECONNREFUSED 203.0.113.9:443' });
    expect(attemptOutcome({ ok: false, kind: 'dns', message: 'getaddrinfo ENOTFOUND x.example' })).toMatchObject({
      kind: 'retryable',
      error: 'DNS: getaddrinfo ENOTFOUND x.example',
    });
  });

  it('redirects, refused addresses and bad URLs are final', () => {
    expect(attemptOutcome({ ok: false, kind: 'redirect', status: 301, location: 'http://10.0.0.1/', durationMs: 4 })).toEqual({
      kind: 'final',
      statusCode: 301,
      durationMs: 4,
      error: 'HTTP 301 redirect, not followed',
    });
    expect(attemptOutcome({ ok: false, kind: 'refused-address', address: '10.0.0.1', addressClass: 'private' })).toMatchObject({
      kind: 'final',
      error: 'refused address 10.0.0.1 (private); see webhooks.allowPrivateNetworks',
    });
    expect(attemptOutcome({ ok: false, kind: 'bad-url', message: 'scheme ftp: is not http or https' })).toMatchObject({ kind: 'final' });
  });

  it('keeps error texts short', () => {
    const long = attemptOutcome({ ok: false, kind: 'dns', message: 'x'.repeat(5000) });
    expect(long.kind !== 'delivered' && long.error.length).toBe(300);
  });
});

describe('nextAttemptAt', () => {
  const now = new Date('2026-01-01T00:00:00.000Z');
  const schedule = [5_000, 300_000];

  it('waits the schedule step of the attempt that failed, ±20 %', () => {
    expect(nextAttemptAt(now, 1, schedule, () => 0.5)?.toISOString()).toBe('2026-01-01T00:00:05.000Z');
    expect(nextAttemptAt(now, 1, schedule, () => 0)?.getTime()).toBe(now.getTime() + 4_000);
    expect(nextAttemptAt(now, 1, schedule, () => 1)?.getTime()).toBe(now.getTime() + 6_000);
    expect(nextAttemptAt(now, 2, schedule, () => 0.5)?.getTime()).toBe(now.getTime() + 300_000);
  });

  it('is null once the schedule is spent (attempts = 1 + its length)', () => {
    expect(nextAttemptAt(now, 3, schedule)).toBeNull();
    expect(nextAttemptAt(now, 1, [])).toBeNull();
  });
});
