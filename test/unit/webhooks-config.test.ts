import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../packages/server/src/config/index.js';
import { configProblems } from '../helpers/config-problems.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;

describe('webhooks config', () => {
  it('defaults: public addresses only, 10 s, the Standard Webhooks schedule, 100 failures, the worker on, 30 days kept', () => {
    expect(resolveConfig({}, {}).webhooks).toEqual({
      allowPrivateNetworks: false,
      timeoutMs: 10 * S,
      retryScheduleMs: [5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H],
      disableAfterFailures: 100,
      worker: true,
      retentionMs: 30 * 24 * H,
    });
  });

  it('reads every key; durations as strings, or numbers of seconds; an empty schedule means no retries', () => {
    const w = resolveConfig(
      {
        webhooks: {
          allowPrivateNetworks: true,
          timeout: '2500ms',
          retrySchedule: ['100ms', 2, '1m'],
          disableAfterFailures: 5,
          worker: false,
          retention: '7d',
        },
      },
      {},
    ).webhooks;
    expect(w).toEqual({
      allowPrivateNetworks: true,
      timeoutMs: 2500,
      retryScheduleMs: [100, 2000, M],
      disableAfterFailures: 5,
      worker: false,
      retentionMs: 7 * 24 * H,
    });
    expect(resolveConfig({ webhooks: { retrySchedule: [] } }, {}).webhooks.retryScheduleMs).toEqual([]);
  });

  it('WEBHOOKS_WORKER turns the worker off (or on) over the file', () => {
    expect(resolveConfig({}, { WEBHOOKS_WORKER: 'false' }).webhooks.worker).toBe(false);
    expect(resolveConfig({ webhooks: { worker: false } }, { WEBHOOKS_WORKER: 'true' }).webhooks.worker).toBe(true);
    expect(configProblems({}, { WEBHOOKS_WORKER: 'no' })).toEqual(['WEBHOOKS_WORKER: expected true or false']);
  });

  it('reports each bad key, naming it', () => {
    expect(
      configProblems({
        webhooks: {
          allowPrivateNetworks: 'yes',
          timeout: '2 minutes',
          retrySchedule: ['5s', 'soon'],
          disableAfterFailures: 0,
          worker: 1,
          retention: -1,
          retries: 3,
        },
      }),
    ).toEqual([
      'webhooks.retries: unknown setting',
      'webhooks.timeout: expected a duration such as "500ms", "10s", "5m" or "30d"',
      'webhooks.allowPrivateNetworks: expected true or false',
      'webhooks.retrySchedule[1]: expected a duration such as "500ms", "10s", "5m" or "30d"',
      'webhooks.disableAfterFailures: expected integer ≥ 1',
      'webhooks.worker: expected true or false',
      'webhooks.retention: expected a duration such as "500ms", "10s", "5m" or "30d"',
    ]);
    expect(configProblems({ webhooks: { timeout: '2m' } })).toEqual(['webhooks.timeout: expected at most 60s']);
    expect(configProblems({ webhooks: { retrySchedule: '5s' } })).toEqual([
      'webhooks.retrySchedule: expected a list of durations such as ["5s", "5m", "30m"]',
    ]);
    expect(configProblems({ webhooks: 'on' })).toEqual(['webhooks: expected an object']);
  });
});
