import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendGuarded, type Resolver } from '../../packages/server/src/net/guarded-request.js';

/**
 * Connection reuse in the webhook guard (docs/webhooks.md, "Network safety"): deliveries to one
 * destination share keep-alive sockets, but only among requests whose check gave the same
 * addresses; a body cut short, a redirect or a timeout never leaves its socket for the next one.
 */
const sockets = new Set<Socket>();
let bodySize = 2;
const server: Server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.url === '/redirect') res.writeHead(302, { location: 'http://127.0.0.1/elsewhere' }).end();
    else res.end('x'.repeat(bodySize));
  });
});
server.on('connection', (socket: Socket) => sockets.add(socket));
let port = 0;

beforeAll(async () => {
  // Every IPv4 address of the machine, so 127.0.0.2 (also loopback on Linux) reaches it as well.
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const to = (path: string, resolve?: Resolver) => ({
  url: `http://hooks.test:${port}${path}`,
  headers: { 'content-type': 'application/json' },
  body: '{}',
  allowPrivateNetworks: true,
  resolve: resolve ?? (async () => [{ address: '127.0.0.1', family: 4 as const }]),
});

describe('keep-alive reuse in sendGuarded', () => {
  it('sequential deliveries to one destination use one connection', async () => {
    bodySize = 2;
    const before = sockets.size;
    for (let i = 0; i < 5; i++) expect(await sendGuarded(to('/same'))).toMatchObject({ ok: true, status: 200, bodySnippet: 'xx' });
    expect(sockets.size - before).toBe(1);
  });

  it('the same host checked to other addresses gets a connection of its own', async () => {
    bodySize = 2;
    await sendGuarded(to('/a'));
    const before = sockets.size;
    // 127.0.0.2 is loopback too (Linux answers the whole 127/8): another check, another socket.
    const other: Resolver = async () => [{ address: '127.0.0.2', family: 4 }];
    const viaOther = await sendGuarded({ ...to('/b', other), url: `http://hooks.test:${port}/b` });
    expect(viaOther).toMatchObject({ ok: true, status: 200 });
    expect(sockets.size - before).toBe(1);
    const remote = [...sockets].at(-1)!;
    expect(remote.localAddress).toBe('127.0.0.2');
  });

  it('a body longer than the kept snippet, or a redirect, is not left for reuse', async () => {
    bodySize = 64 * 1024;
    const before = sockets.size;
    expect(await sendGuarded(to('/long'))).toMatchObject({ ok: true, status: 200 });
    expect(await sendGuarded(to('/long'))).toMatchObject({ ok: true, status: 200 });
    expect(await sendGuarded(to('/redirect'))).toMatchObject({ ok: false, kind: 'redirect' });
    bodySize = 2;
    expect(await sendGuarded(to('/after'))).toMatchObject({ ok: true, status: 200 });
    // Each cut-short exchange cost its socket: four requests, at least three connections.
    expect(sockets.size - before).toBeGreaterThanOrEqual(3);
  });
});
