import { answerWithin, connectRedis } from '../redis-connection.js';
import { ChannelUnavailableError, type ChannelHandlers, type MessageChannel } from './message-channel.js';

const AWAY =
  "realtime: Redis is unreachable; until it is back this node delivers its own events to its own streams only, and misses other nodes' events";

/**
 * Redis pub/sub: one subscriber connection and one for publishing (a subscribed connection may
 * not publish). Redis delivers a channel's messages in one order to every subscriber, the
 * sender's too. The channel is up while the subscription holds and the publisher is connected;
 * ioredis reconnects both by itself, and the subscription is made again on every new connection.
 * While it is down `send` refuses at once (`ChannelUnavailableError`), so the node delivers its
 * own events locally (docs/realtime.md, "Several nodes"); the loss is told once, and so is the
 * return. Resolves once the channel is up or its first connection failed.
 */
export async function openRedisChannel(url: string, channel: string, handlers: ChannelHandlers): Promise<MessageChannel> {
  // Neither waits for Redis to come back: a send while it is down fails at once instead of holding
  // every event behind it for the reconnect backoff, and one that Redis does not answer fails at the deadline.
  const subscriber = connectRedis(url, { autoResubscribe: false });
  const publisher = connectRedis(url);
  let subscribed = false;
  let state: 'starting' | 'up' | 'down' = 'starting';
  let closing = false;
  let lastError: unknown;
  let started: () => void = () => undefined;
  const start = new Promise<void>((resolve) => (started = resolve));

  const update = () => {
    if (closing) return;
    const up = subscribed && publisher.status === 'ready';
    if (up && state !== 'up') {
      if (state === 'down') handlers.onRestored('realtime: Redis is back; events reach every node again');
      state = 'up';
      started();
    } else if (!up && state === 'up') {
      state = 'down';
      handlers.onWarning(AWAY, lastError);
    }
  };
  /** A connection failed: before the channel was ever up, that ends the wait (the node starts without it). */
  const lost = () => {
    if (closing) return;
    if (state === 'starting') {
      state = 'down';
      handlers.onWarning(AWAY, lastError);
      started();
    } else update();
  };

  // Every failed reconnect emits 'error' and 'close'; the state above tells only the changes.
  for (const connection of [subscriber, publisher]) connection.on('error', (err: unknown) => (lastError = err));
  subscriber.on('close', () => {
    subscribed = false;
    lost();
  });
  publisher.on('close', lost);
  publisher.on('ready', update);
  subscriber.on('ready', () => {
    answerWithin(subscriber.subscribe(channel)).then(
      () => {
        subscribed = true;
        update();
      },
      (err: unknown) => {
        // Connected but not subscribed: connect again and retry there.
        lastError = err;
        subscriber.disconnect(true);
      },
    );
  });
  subscriber.on('message', (ch: string, payload: string) => {
    if (ch === channel) handlers.onMessage(payload);
  });

  await start;
  return {
    // Redis takes up to 512 MB; events are kept whole up to this size and sent without data beyond.
    maxBytes: 1_000_000,
    async send(payload) {
      if (state !== 'up') throw new ChannelUnavailableError();
      await answerWithin(publisher.publish(channel, payload));
    },
    async close() {
      closing = true;
      await Promise.all([subscriber.quit().catch(() => subscriber.disconnect()), publisher.quit().catch(() => publisher.disconnect())]);
    },
  };
}
