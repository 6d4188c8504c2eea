import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../packages/server/src/config/index.js';
import { configProblems } from '../helpers/config-problems.js';

const PG = { database: { url: 'postgres://x@127.0.0.1/db' } };

describe('realtime config (docs/realtime.md, "Configuration")', () => {
  it('defaults: 1000 events of backlog, 15 s heartbeat, 1000 streams, auto fan-out on vellum_events', () => {
    expect(resolveConfig({}, {}).realtime).toEqual({
      backlog: 1000,
      heartbeatMs: 15_000,
      maxStreams: 1000,
      fanout: 'auto',
      channel: 'vellum_events',
    });
  });

  it('takes durations, counts, a fan-out and a channel', () => {
    const c = resolveConfig(
      { ...PG, realtime: { backlog: 10, heartbeat: '250ms', maxStreams: 5, fanout: 'postgres', channel: 'site_a' } },
      {},
    );
    expect(c.realtime).toEqual({ backlog: 10, heartbeatMs: 250, maxStreams: 5, fanout: 'postgres', channel: 'site_a' });
    expect(resolveConfig({ redis: { url: 'redis://127.0.0.1' }, realtime: { fanout: 'redis' } }, {}).realtime.fanout).toBe('redis');
  });

  it('refuses what it cannot use, naming each setting', () => {
    expect(
      configProblems({ realtime: { backlog: -1, heartbeat: 'often', maxStreams: 0, fanout: 'carrier-pigeon', channel: 'Bad Name', x: 1 } }),
    ).toEqual([
      'realtime.x: unknown setting',
      'realtime.heartbeat: expected a duration such as "15s" (at least 10 ms)',
      'realtime.fanout: expected one of auto, local, postgres, redis',
      'realtime.channel: expected a lower-case identifier such as vellum_events',
      'realtime.backlog: expected integer ≥ 0 and ≤ 1000000',
      'realtime.maxStreams: expected integer ≥ 1',
    ]);
    expect(configProblems({ realtime: { fanout: 'redis' } })).toEqual(['realtime.fanout: redis needs redis.url (or REDIS_URL)']);
    expect(configProblems({ realtime: { fanout: 'postgres' } })).toEqual(['realtime.fanout: postgres needs a PostgreSQL database']);
  });
});
