import type { ConfigReader } from './reader.js';
import { parseDuration } from './duration.js';

/** `realtime`: the event stream `GET /events` (docs/realtime.md, "Configuration"). */
export interface RealtimeConfig {
  /** Events each node keeps for resuming streams (`Last-Event-ID`). */
  backlog: number;
  /** Milliseconds between `: ping` comments; each one also re-checks the caller's credential. */
  heartbeatMs: number;
  /** Open streams per node; more get 503. */
  maxStreams: number;
  /** How events reach the other nodes: `auto` is `postgres` on PostgreSQL and `local` on SQLite. */
  fanout: 'auto' | 'local' | 'postgres' | 'redis';
  /** The PostgreSQL NOTIFY channel or Redis pub/sub channel the nodes share. */
  channel: string;
}

const FANOUTS = ['auto', 'local', 'postgres', 'redis'] as const;

export function realtimeSection(r: ConfigReader, raw: unknown, hasRedis: boolean, databaseUrl: string): RealtimeConfig {
  const o = r.object('realtime', raw, ['backlog', 'heartbeat', 'maxStreams', 'fanout', 'channel']);
  let heartbeatMs = 15_000;
  if (o.heartbeat !== undefined) {
    const ms = typeof o.heartbeat === 'string' || typeof o.heartbeat === 'number' ? parseDuration(o.heartbeat) : undefined;
    if (ms === undefined || ms < 10) r.problem('realtime.heartbeat', 'expected a duration such as "15s" (at least 10 ms)');
    else heartbeatMs = ms;
  }
  const fanout = (o.fanout ?? 'auto') as RealtimeConfig['fanout'];
  if (!FANOUTS.includes(fanout)) r.problem('realtime.fanout', `expected one of ${FANOUTS.join(', ')}`);
  if (fanout === 'postgres' && databaseUrl.startsWith('sqlite:')) r.problem('realtime.fanout', 'postgres needs a PostgreSQL database');
  if (fanout === 'redis' && !hasRedis) r.problem('realtime.fanout', 'redis needs redis.url (or REDIS_URL)');
  const channel = r.string('realtime.channel', o.channel, { def: 'vellum_events' }) as string;
  // A PostgreSQL identifier as LISTEN takes it unquoted; the same names suit Redis.
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) r.problem('realtime.channel', 'expected a lower-case identifier such as vellum_events');
  return {
    backlog: r.int('realtime.backlog', o.backlog, { def: 1000, min: 0, max: 1_000_000 }) as number,
    heartbeatMs,
    maxStreams: r.int('realtime.maxStreams', o.maxStreams, { def: 1000, min: 1 }) as number,
    fanout: FANOUTS.includes(fanout) ? fanout : 'auto',
    channel,
  };
}
