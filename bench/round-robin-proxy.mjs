// A round-robin TCP proxy on 127.0.0.1, shared by `npm run bench:two-nodes` and the two-node tests
// (test/helpers/two-nodes.ts, docs/operations.md): plain JS so the benchmark runs it without a
// build; round-robin-proxy.d.mts types it for the tests.
import { connect, createServer } from 'node:net';

/**
 * Listens on a free port of 127.0.0.1 and sends each new connection to the next of `ports` in
 * turn, alternating per connection (not per request: a keep-alive connection stays on its node).
 * Either side closing destroys the other; `close` destroys every open connection and stops
 * listening.
 *
 * @param {readonly number[]} ports
 */
export async function startRoundRobinProxy(ports) {
  /** Which target (an index into `ports`) took each connection so far, in order. */
  const routed = [];
  let next = 0;
  const sockets = new Set();
  const server = createServer((client) => {
    const target = next++ % ports.length;
    routed.push(target);
    const upstream = connect(ports[target], '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    routed,
    close() {
      for (const s of sockets) s.destroy();
      // Resolves when closed already too (a second close gets ERR_SERVER_NOT_RUNNING, ignored).
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
