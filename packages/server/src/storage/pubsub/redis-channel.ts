import { Redis } from 'ioredis';
import type { ChannelHandlers, MessageChannel } from './message-channel.js';

/**
 * Redis pub/sub: one subscriber connection and one for publishing (a subscribed connection may
 * not publish). Redis delivers a channel's messages in one order to every subscriber, the
 * sender's too; ioredis reconnects and subscribes again by itself.
 */
export async function openRedisChannel(url: string, channel: string, handlers: ChannelHandlers): Promise<MessageChannel> {
  const subscriber = new Redis(url, { maxRetriesPerRequest: null });
  const publisher = new Redis(url, { maxRetriesPerRequest: 2 });
  subscriber.on('error', (err) => handlers.onWarning('realtime: the Redis subscriber connection failed; reconnecting', err));
  publisher.on('error', () => undefined);
  subscriber.on('message', (ch: string, payload: string) => {
    if (ch === channel) handlers.onMessage(payload);
  });
  await subscriber.subscribe(channel);
  return {
    // Redis takes up to 512 MB; events are kept whole up to this size and sent without data beyond.
    maxBytes: 1_000_000,
    async send(payload) {
      await publisher.publish(channel, payload);
    },
    async close() {
      await Promise.all([subscriber.quit().catch(() => subscriber.disconnect()), publisher.quit().catch(() => publisher.disconnect())]);
    },
  };
}
