import { sql } from 'kysely';
import type pg from 'pg';
import type { DatabaseConfig } from '../../config/types.js';
import type { Database } from '../database.js';
import type { ChannelHandlers, MessageChannel } from '../pubsub/message-channel.js';

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more (the default build). */
const MAX_BYTES = 7999;
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 30_000;

/**
 * LISTEN/NOTIFY: one dedicated connection per node LISTENs on the channel (outside the pool, it
 * must stay open); sending is `select pg_notify(channel, payload)` on the pool, or a `pg_notify` inside
 * a write's own statement (`statementChannel`, storage/documents/postgres-guarded-writes.ts). PostgreSQL
 * delivers notifications in commit order to every listener, the sender's too. A lost listener
 * connection is made again (with a growing pause) and reported: what was sent meanwhile is lost.
 */
export async function openPgNotifyChannel(
  database: Database,
  config: DatabaseConfig,
  channel: string,
  handlers: ChannelHandlers,
): Promise<MessageChannel> {
  const { default: driver } = await import('pg');
  let client: pg.Client | undefined;
  let closed = false;
  let delay = RECONNECT_MIN_MS;
  let timer: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const c = new driver.Client({
      connectionString: config.url,
      connectionTimeoutMillis: config.connectTimeoutMs,
      keepAlive: config.keepAlive,
      keepAliveInitialDelayMillis: config.keepAliveInitialDelayMs,
    });
    c.on('notification', (n) => {
      if (n.channel === channel && n.payload !== undefined) handlers.onMessage(n.payload);
    });
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c));
    await c.connect();
    // The channel name is checked by the config (a lower-case identifier), so it can stand unquoted.
    await c.query(`LISTEN ${channel}`);
    if (closed) return void c.end().catch(() => undefined);
    client = c;
    delay = RECONNECT_MIN_MS;
  };

  const lost = (c: pg.Client, err?: unknown) => {
    if (closed || client !== c) return;
    client = undefined;
    c.removeAllListeners('end');
    c.on('error', () => undefined);
    void c.end().catch(() => undefined);
    handlers.onWarning('realtime: the LISTEN connection to PostgreSQL was lost; reconnecting', err);
    retry();
  };

  const retry = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      connect().catch((err: unknown) => {
        handlers.onWarning('realtime: could not LISTEN on PostgreSQL; trying again', err);
        delay = Math.min(delay * 2, RECONNECT_MAX_MS);
        retry();
      });
    }, delay);
  };

  await connect();
  return {
    maxBytes: MAX_BYTES,
    async send(payload) {
      await sql`select pg_notify(${channel}, ${payload})`.execute(database.db);
    },
    // While the listener is lost this node would not hear its own writes' notices: they go by
    // `send`, which the bus then answers by delivering locally.
    statementChannel: () => (client ? channel : undefined),
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
