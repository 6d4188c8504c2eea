import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendGuarded, type Resolver } from '../../packages/server/src/net/guarded-request.js';

/**
 * The webhook guard against a real HTTP server on loopback (docs/webhooks.md, "Network safety").
 * Loopback is exactly what the guard refuses, so "refused" is shown by the server seeing nothing,
 * and "allowed" by `allowPrivateNetworks`.
 */

interface Seen {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let seen: Seen[] = [];
let answer: (res: ServerResponse) => void = (res) => res.end('ok');
const held = new Set<ServerResponse>();

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    seen.push({ method: req.method, url: req.url, headers: req.headers, body });
    answer(res);
  });
});
let port = 0;

beforeAll(async () => {
  port = await listen(server);
});
afterAll(async () => {
  for (const res of held) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen = [];
  answer = (res) => res.end('ok');
});

const post = { headers: { 'content-type': 'application/json' }, body: '{"hello":"world"}' };

/** A resolver that answers fixed addresses and counts its calls. */
function fixedResolver(...addresses: string[]): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (host: string) => {
    calls.push(host);
    return addresses.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  };
  return Object.assign(resolve, { calls });
}

describe('sendGuarded', () => {
  it('refuses loopback by default, and the server sees no request', async () => {
    const r = await sendGuarded({ ...post, url: `http://127.0.0.1:${port}/hook`, allowPrivateNetworks: false });
    expect(r).toEqual({ ok: false, kind: 'refused-address', address: '127.0.0.1', addressClass: 'loopback' });
    expect(seen).toEqual([]);
  });

  it.each([
    ['decimal', `http://2130706433:PORT/hook`],
    ['octal', `http://0177.0.0.1:PORT/hook`],
    ['IPv4-mapped IPv6', `http://[::ffff:127.0.0.1]:PORT/hook`],
  ])('refuses loopback written in %s form', async (_, url) => {
    const r = await sendGuarded({ ...post, url: url.replace('PORT', String(port)), allowPrivateNetworks: false });
    expect(r).toMatchObject({ ok: false, kind: 'refused-address', addressClass: 'loopback' });
    expect(seen).toEqual([]);
  });

  it('delivers to loopback with allowPrivateNetworks, and reports status, duration and the body', async () => {
    answer = (res) => {
      res.statusCode = 202;
      res.end('accepted');
    };
    const r = await sendGuarded({ ...post, url: `http://127.0.0.1:${port}/hook?x=1`, allowPrivateNetworks: true });
    expect(r).toMatchObject({ ok: true, status: 202, bodySnippet: 'accepted' });
    expect(r.ok && r.durationMs).toBeGreaterThanOrEqual(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/hook?x=1', body: post.body });
    expect(seen[0].headers['content-type']).toBe('application/json');
  });

  it('reports a 5xx as a response (the caller decides what it means)', async () => {
    answer = (res) => {
      res.statusCode = 503;
      res.end('down');
    };
    const r = await sendGuarded({ ...post, url: `http://127.0.0.1:${port}/`, allowPrivateNetworks: true });
    expect(r).toMatchObject({ ok: true, status: 503, bodySnippet: 'down' });
  });

  it('keeps only the first KiB of a long response body', async () => {
    answer = (res) => res.end('x'.repeat(100_000));
    const r = await sendGuarded({ ...post, url: `http://127.0.0.1:${port}/`, allowPrivateNetworks: true });
    expect(r.ok && r.bodySnippet).toBe('x'.repeat(1024));
  });

  it('refuses a host name that resolves to 127.0.0.1 through the resolver', async () => {
    const resolve = fixedResolver('127.0.0.1');
    const r = await sendGuarded({ ...post, url: `http://hooks.example.test:${port}/`, allowPrivateNetworks: false, resolve });
    expect(r).toEqual({ ok: false, kind: 'refused-address', address: '127.0.0.1', addressClass: 'loopback' });
    expect(resolve.calls).toEqual(['hooks.example.test']);
    expect(seen).toEqual([]);
  });

  it('with allowPrivateNetworks, connects to the resolved address once, with the host name in Host', async () => {
    const resolve = fixedResolver('127.0.0.1');
    const r = await sendGuarded({ ...post, url: `http://hooks.example.test:${port}/in`, allowPrivateNetworks: true, resolve });
    expect(r).toMatchObject({ ok: true, status: 200 });
    expect(resolve.calls).toEqual(['hooks.example.test']);
    expect(seen).toHaveLength(1);
    expect(seen[0].headers.host).toBe(`hooks.example.test:${port}`);
  });

  it('over https, connects to the resolved address with the host name as the TLS server name', async () => {
    // The server records the name the client asks for (SNI) and ends the handshake there:
    // no certificate is needed to see where the connection went and under which name.
    const names: string[] = [];
    const tlsServer = createTlsServer({
      SNICallback: (name, callback) => {
        names.push(name);
        callback(new Error('recorded'));
      },
    });
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    const tlsPort = (tlsServer.address() as AddressInfo).port;
    try {
      const resolve = fixedResolver('127.0.0.1');
      const r = await sendGuarded({ ...post, url: `https://hooks.example.test:${tlsPort}/`, allowPrivateNetworks: true, resolve });
      expect(r).toMatchObject({ ok: false, kind: 'connection' });
      expect(names).toEqual(['hooks.example.test']);
      expect(resolve.calls).toEqual(['hooks.example.test']);
    } finally {
      await new Promise((resolve) => tlsServer.close(resolve));
    }
  });

  it('checks every resolved address: [public, loopback] is refused', async () => {
    const resolve = fixedResolver('1.1.1.1', '127.0.0.1');
    const r = await sendGuarded({ ...post, url: `http://mixed.example.test:${port}/`, allowPrivateNetworks: false, resolve });
    expect(r).toEqual({ ok: false, kind: 'refused-address', address: '127.0.0.1', addressClass: 'loopback' });
    expect(seen).toEqual([]);
  });

  it.each(['ftp://example.com/x', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url'])('refuses %s as a bad URL', async (url) => {
    const r = await sendGuarded({ ...post, url, allowPrivateNetworks: true });
    expect(r).toMatchObject({ ok: false, kind: 'bad-url' });
  });

  it('does not follow a redirect: a 302 is a failure, and its target sees nothing', async () => {
    const target = createServer((_, res) => res.end('target'));
    const targetSeen: string[] = [];
    target.on('request', (req) => targetSeen.push(req.url ?? ''));
    const targetPort = await listen(target);
    try {
      answer = (res) => {
        res.writeHead(302, { location: `http://127.0.0.1:${targetPort}/elsewhere` });
        res.end();
      };
      const r = await sendGuarded({ ...post, url: `http://127.0.0.1:${port}/`, allowPrivateNetworks: true });
      expect(r).toMatchObject({ ok: false, kind: 'redirect', status: 302, location: `http://127.0.0.1:${targetPort}/elsewhere` });
      expect(seen).toHaveLength(1);
      expect(targetSeen).toEqual([]);
    } finally {
      target.closeAllConnections();
      await new Promise((resolve) => target.close(resolve));
    }
  });

  it('gives up on a server that never answers: timeout', async () => {
    answer = (res) => held.add(res); // holds the response open
    const r = await sendGuarded({ ...post, url: `http://127.0.0.1:${port}/`, allowPrivateNetworks: true, timeoutMs: 200 });
    expect(r).toMatchObject({ ok: false, kind: 'timeout' });
    expect(seen).toHaveLength(1);
  });

  it('gives up on a server that sends headers and then stalls the body: timeout', async () => {
    answer = (res) => {
      held.add(res);
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    };
    const r = await sendGuarded({ ...post, url: `http://127.0.0.1:${port}/`, allowPrivateNetworks: true, timeoutMs: 200 });
    expect(r).toMatchObject({ ok: false, kind: 'timeout' });
  });

  it('sends the URL’s user and password as Basic authorization', async () => {
    const r = await sendGuarded({ ...post, url: `http://hook%40user:p%3Ass@127.0.0.1:${port}/`, allowPrivateNetworks: true });
    expect(r).toMatchObject({ ok: true, status: 200 });
    expect(seen[0].headers.authorization).toBe(`Basic ${Buffer.from('hook@user:p:ss').toString('base64')}`);
  });

  it('reports a refused connection as a connection failure', async () => {
    const closed = createServer();
    const closedPort = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    const r = await sendGuarded({ ...post, url: `http://127.0.0.1:${closedPort}/`, allowPrivateNetworks: true });
    expect(r).toMatchObject({ ok: false, kind: 'connection', code: 'ECONNREFUSED' });
  });

  it('reports a resolver failure as dns', async () => {
    const resolve: Resolver = async () => {
      throw new Error('getaddrinfo ENOTFOUND nowhere.test');
    };
    const r = await sendGuarded({ ...post, url: 'http://nowhere.test/', allowPrivateNetworks: false, resolve });
    expect(r).toMatchObject({ ok: false, kind: 'dns' });
  });
});
