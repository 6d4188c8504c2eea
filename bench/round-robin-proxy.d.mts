export interface RoundRobinProxy {
  port: number;
  /** `http://127.0.0.1:<port>`. */
  base: string;
  /** Which target (an index into `ports`) took each connection so far, in order. */
  routed: number[];
  /** Destroys every open connection and stops listening. */
  close(): Promise<void>;
}

/** A round-robin TCP proxy on 127.0.0.1 in front of `ports`, alternating per connection. */
export function startRoundRobinProxy(ports: readonly number[]): Promise<RoundRobinProxy>;
