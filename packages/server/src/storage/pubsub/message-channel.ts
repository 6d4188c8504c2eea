/**
 * A broadcast channel between the nodes of one instance (docs/realtime.md, "Several nodes"):
 * every message sent reaches every node's `onMessage`, the sender's included, in one order.
 */
export interface MessageChannel {
  /** The largest payload `send` takes, in bytes (UTF-8). */
  readonly maxBytes: number;
  send(payload: string): Promise<void>;
  /**
   * The channel's name when a write's own statement can send a message on it, delivered at its
   * commit (PostgreSQL: `pg_notify` inside the statement) and this node hears the channel now;
   * undefined otherwise (Redis; PostgreSQL while the listening connection is lost).
   */
  statementChannel?(): string | undefined;
  close(): Promise<void>;
}

/** A message a write's statement sends on `channel` when it commits, and only if it writes. */
export interface Notice {
  channel: string;
  payload: string;
}

/**
 * Asked by a statement that can carry a notice (storage decides: PostgreSQL's one-statement writes
 * can); the events are then that statement's to send, at commit, and not sent again after it.
 */
export type TakeNotice = () => Notice | undefined;

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
