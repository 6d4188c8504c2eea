/**
 * A broadcast channel between the nodes of one instance (docs/realtime.md, "Several nodes"):
 * every message sent reaches every node's `onMessage`, the sender's included, in one order.
 */
export interface MessageChannel {
  /** The largest payload `send` takes, in bytes (UTF-8). */
  readonly maxBytes: number;
  send(payload: string): Promise<void>;
  close(): Promise<void>;
}

export interface ChannelHandlers {
  onMessage(payload: string): void;
  /** The connection was lost (and is being made again): messages sent meanwhile were missed. */
  onWarning(message: string, err?: unknown): void;
  /** The channel works again after the loss `onWarning` told. */
  onRestored(message: string): void;
}

/**
 * `send` refused because the channel is known to be down, and `onWarning` already said so: the
 * message would not come back to this node either, so the sender delivers it locally at once.
 */
export class ChannelUnavailableError extends Error {
  constructor() {
    super('the channel between the nodes is unavailable');
  }
}
