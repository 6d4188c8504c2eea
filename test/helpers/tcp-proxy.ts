import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * What the network between the service and its database does:
 * - `forward`: passes bytes both ways;
 * - `silent`: keeps every connection open and accepts new ones, but passes nothing in either
 *   direction (a proxy or firewall that stops forwarding without resetting anything);
 * - `refuse`: resets every open connection and stops listening, so connects fail with
 *   ECONNREFUSED (the database is down).
 */
export type ProxyMode = 'forward' | 'silent' | 'refuse';

export interface TcpProxy {
  /** Makes `url`'s host and port the proxy's target; returns `url` pointing at the proxy instead. */
  via(url: string): string;
  setMode(mode: ProxyMode): Promise<void>;
  close(): Promise<void>;
}

/** A TCP proxy of the test's own between the service and its PostgreSQL server. */
export async function startTcpProxy(): Promise<TcpProxy> {
  let target = { host: '127.0.0.1', port: 5432 };
  let mode: ProxyMode = 'forward';
  const sockets = new Set<Socket>();

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // Resets are part of what this proxy does; they must not end the test process.
    socket.on('error', () => undefined);
  };

  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    track(client);
    track(upstream);
    // Bytes that arrive while silent are dropped, as a black-holing network would.
    client.on('data', (chunk) => void (mode === 'forward' && upstream.write(chunk)));
    upstream.on('data', (chunk) => void (mode === 'forward' && client.write(chunk)));
    // The service closing its side always reaches the database (it frees the backend); the
    // database closing its side reaches the service only while forwarding.
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => void (mode === 'forward' && client.destroy()));
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));
  const resetAll = () => {
    for (const s of sockets) s.resetAndDestroy();
  };

  await listen(0);
  const port = (server.address() as { port: number }).port;

  return {
    via(url: string) {
      const u = new URL(url);
      target = { host: u.hostname, port: Number(u.port || 5432) };
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async setMode(next: ProxyMode) {
      if (next === mode) return;
      const wasRefusing = mode === 'refuse';
      mode = next;
      if (next === 'refuse') {
        resetAll();
        await stopListening();
      } else if (wasRefusing) {
        await listen(port);
      }
    },
    async close() {
      resetAll();
      if (mode !== 'refuse') await stopListening();
    },
  };
}
