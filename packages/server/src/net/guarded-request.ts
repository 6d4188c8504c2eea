import { lookup as dnsLookup } from 'node:dns/promises';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { classifyAddress, type AddressClass } from './address-class.js';

/**
 * One outgoing POST to a URL a user gave (a webhook), guarded against server-side request forgery
 * (docs/webhooks.md, "Network safety"): http(s) only; the host is resolved once and every address
 * checked; the connection goes to a checked address (so a second DNS answer cannot point
 * elsewhere); redirects are never followed; one deadline covers resolving, connecting and the
 * response; only the first KiB of the response body is kept.
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Host name → its addresses. Injectable so tests can resolve a name to loopback. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface GuardedRequest {
  url: string;
  method?: 'POST';
  headers: Record<string, string>;
  body: string | Buffer;
  /** One deadline for the whole exchange; 10 s by default. */
  timeoutMs?: number;
  /** `webhooks.allowPrivateNetworks`: reach loopback, private and other non-public addresses too. */
  allowPrivateNetworks: boolean;
  resolve?: Resolver;
}

export interface GuardedResponse {
  ok: true;
  status: number;
  durationMs: number;
  /** The first KiB of the response body, as UTF-8. */
  bodySnippet: string;
}

export type GuardedFailure =
  | { ok: false; kind: 'bad-url'; message: string }
  | { ok: false; kind: 'refused-address'; address: string; addressClass: AddressClass }
  | { ok: false; kind: 'dns'; message: string }
  | { ok: false; kind: 'timeout'; durationMs: number }
  | { ok: false; kind: 'connection'; code?: string; message: string; durationMs: number }
  | { ok: false; kind: 'redirect'; status: number; location?: string; durationMs: number };

export type GuardedResult = GuardedResponse | GuardedFailure;

export const DEFAULT_TIMEOUT_MS = 10_000;
const SNIPPET_BYTES = 1024;

const defaultResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

class Timeout extends Error {}

export async function sendGuarded(req: GuardedRequest): Promise<GuardedResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Timeout());
      abort.abort(); // ends the socket and the response, wherever the exchange is
    }, timeoutMs);
  });
  deadline.catch(() => {}); // raced below; never an unhandled rejection between the steps
  try {
    // 1–2. Parse, resolve once and check every address.
    const dest = await destination(req.url, req, deadline);
    if (!dest.ok) return dest;
    const { url, hostname, addresses } = dest;

    // 3. Connect to the checked addresses only; Host and the TLS server name stay the URL's host.
    const response = await Promise.race([exchange(url, hostname, addresses, req, abort.signal), deadline]);
    if ('error' in response) {
      const err = response.error as NodeJS.ErrnoException;
      return { ok: false, kind: 'connection', code: err.code, message: err.message, durationMs: elapsed() };
    }
    const { res } = response;
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400) {
      res.destroy();
      return { ok: false, kind: 'redirect', status, location: res.headers.location, durationMs: elapsed() };
    }

    // 4. Keep the first KiB of the body and drop the rest (a receiver cannot make us read forever).
    const bodySnippet = await Promise.race([readSnippet(res), deadline]);
    return { ok: true, status, durationMs: elapsed(), bodySnippet };
  } catch (e) {
    if (e instanceof Timeout) return { ok: false, kind: 'timeout', durationMs: elapsed() };
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/** A URL whose host was resolved and whose every address was checked. */
export interface CheckedDestination {
  ok: true;
  url: URL;
  /** The URL's host without IPv6 brackets. */
  hostname: string;
  addresses: ResolvedAddress[];
}

export type DestinationFailure =
  Extract<GuardedFailure, { kind: 'bad-url' | 'refused-address' | 'dns' }> | { ok: false; kind: 'timeout'; durationMs: number };

/**
 * Steps 1–2 of a guarded request on their own, so a webhook URL can be checked when it is saved
 * with the very rules its deliveries meet (docs/webhooks.md, "Network safety"): http(s) only, the
 * host resolved once (an IP literal is its own answer), every address public unless
 * `allowPrivateNetworks`. Resolving gets `timeoutMs` (10 s by default).
 */
export async function checkDestination(
  rawUrl: string,
  opts: { allowPrivateNetworks: boolean; resolve?: Resolver; timeoutMs?: number },
): Promise<CheckedDestination | DestinationFailure> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout()), timeoutMs);
  });
  deadline.catch(() => {});
  try {
    return await destination(rawUrl, opts, deadline);
  } catch (e) {
    if (e instanceof Timeout) return { ok: false, kind: 'timeout', durationMs: timeoutMs };
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

async function destination(
  rawUrl: string,
  opts: { allowPrivateNetworks: boolean; resolve?: Resolver },
  deadline: Promise<never>,
): Promise<CheckedDestination | Exclude<DestinationFailure, { kind: 'timeout' }>> {
  // 1. Parse with the WHATWG parser: it turns `2130706433` and `0177.0.0.1` into 127.0.0.1.
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, kind: 'bad-url', message: 'not a URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, kind: 'bad-url', message: `scheme ${url.protocol} is not http or https` };
  }
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');

  // 2. Resolve once (an IP literal is its own answer) and check every address; a timeout throws.
  let addresses: ResolvedAddress[];
  const literal = classifyAddress(hostname);
  if (literal) addresses = [{ address: hostname, family: hostname.includes(':') ? 6 : 4 }];
  else {
    try {
      addresses = await Promise.race([(opts.resolve ?? defaultResolver)(hostname), deadline]);
    } catch (e) {
      if (e instanceof Timeout) throw e;
      return { ok: false, kind: 'dns', message: (e as Error).message };
    }
    if (addresses.length === 0) return { ok: false, kind: 'dns', message: `${hostname} has no address` };
  }
  if (!opts.allowPrivateNetworks) {
    for (const a of addresses) {
      const addressClass = classifyAddress(a.address) ?? 'reserved';
      if (addressClass !== 'public') return { ok: false, kind: 'refused-address', address: a.address, addressClass };
    }
  }
  return { ok: true, url, hostname, addresses };
}

type Exchange = { res: IncomingMessage } | { error: Error };

/** Keep-alive agents by destination; the oldest is closed past this many. */
const MAX_AGENTS = 64;
const agents = new Map<string, HttpAgent>();

/**
 * A keep-alive agent for one destination: the scheme, the host and port, and the addresses that
 * were checked for it. A socket is reused only for requests whose check gave the same addresses,
 * so reuse never reaches an address that was not checked; a host that resolves elsewhere later
 * gets an agent (and sockets) of its own. Reuse spares a busy receiver a TCP (and TLS) handshake
 * per delivery.
 */
function agentFor(url: URL, hostname: string, addresses: ResolvedAddress[]): HttpAgent {
  const key = `${url.protocol}//${hostname}:${url.port}|${addresses.map((a) => a.address).join(',')}`;
  let agent = agents.get(key);
  if (agent) {
    agents.delete(key); // re-inserted below: the map's order is last use
  } else {
    const options = { keepAlive: true, maxSockets: 16, maxFreeSockets: 4 };
    agent = url.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
    if (agents.size >= MAX_AGENTS) {
      const [oldestKey, oldest] = agents.entries().next().value as [string, HttpAgent];
      agents.delete(oldestKey);
      oldest.destroy();
    }
  }
  agents.set(key, agent);
  return agent;
}

/** Sends the request; answers the response (headers read) or the connection error. */
function exchange(url: URL, hostname: string, addresses: ResolvedAddress[], req: GuardedRequest, signal: AbortSignal): Promise<Exchange> {
  // Node calls `lookup` with `all: true` when it may try several addresses (autoSelectFamily).
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const outgoing = send(
      {
        protocol: url.protocol,
        hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: req.method ?? 'POST',
        headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
        auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
        lookup,
        agent: agentFor(url, hostname, addresses),
        signal,
      },
      (res) => resolve({ res }),
    );
    outgoing.on('error', (error) => resolve({ error }));
    outgoing.end(req.body);
  });
}

function readSnippet(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const kept: Buffer[] = [];
    let size = 0;
    let settled = false;
    const done = (abandon: boolean) => {
      if (settled) return;
      settled = true;
      // A body read to its end leaves the socket reusable; one cut short (too long, or broken) does not.
      if (abandon) res.destroy();
      resolve(new TextDecoder().decode(Buffer.concat(kept).subarray(0, SNIPPET_BYTES)));
    };
    res.on('data', (chunk: Buffer) => {
      kept.push(chunk);
      size += chunk.length;
      if (size >= SNIPPET_BYTES) done(true);
    });
    res.on('end', () => done(false));
    res.on('error', () => done(true));
    res.on('close', () => done(!res.complete));
  });
}
