import type { VellumConfig } from '../../config/types.js';
import type { Database } from '../database.js';
import type { ChannelHandlers, MessageChannel } from './message-channel.js';

/**
 * The channel `realtime.fanout` names: `auto` is PostgreSQL's LISTEN/NOTIFY where the database
 * has it, and none (one node) otherwise; `local` is none. Drivers load on first use.
 */
export async function openMessageChannel(
  database: Database,
  config: VellumConfig,
  handlers: ChannelHandlers,
): Promise<MessageChannel | undefined> {
  const { fanout, channel } = config.realtime;
  if (fanout === 'redis' && config.redis) return (await import('./redis-channel.js')).openRedisChannel(config.redis.url, channel, handlers);
  const postgres = fanout === 'postgres' || (fanout === 'auto' && database.dialect.listenNotify);
  if (!postgres) return undefined;
  if (!database.dialect.listenNotify) throw new Error('realtime.fanout is postgres, but the database is not PostgreSQL');
  return (await import('../postgres/pg-notify-channel.js')).openPgNotifyChannel(database, config.database, channel, handlers);
}
