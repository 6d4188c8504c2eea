import { apiErrorFrom, VellumApiError } from './errors.js';

/** Where the credentials came from: a sign-in (`/auth/login`, refreshed at `/auth/refresh`) or an OAuth grant (`/auth/token`). */
export type TokenKind = 'session' | 'oauth';

/** The credentials the client holds. An API token (`vlm_…`) is an `accessToken` with no `refreshToken`. */
export interface ClientTokens {
  accessToken: string;
  refreshToken?: string;
  kind: TokenKind;
  /** OAuth: the client the grant belongs to, sent again when refreshing (RFC 6749 §6). */
  clientId?: string;
  /** When the access token expires (ISO 8601), when known. */
  expiresAt?: string;
  /** OAuth: the scopes granted. */
  scope?: string;
}

export interface TransportOptions {
  /** The API base URL, `http://localhost:3000/api`. */
  baseUrl: string;
  fetch?: typeof fetch;
  tokens?: ClientTokens;
  /** Called whenever the held tokens change (sign-in, refresh rotation, sign-out with `undefined`): persist them here. */
  onTokens?: (tokens: ClientTokens | undefined) => void | Promise<void>;
  /** The clock, in milliseconds (tests move it). */
  now?: () => number;
  /** Waits between device-flow polls (tests make it instant). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * How long after one of its writes this client's reads skip the servers' response caches
   * (`Cache-Control: no-cache`), so it sees its own writes whichever node answers (docs/client.md,
   * "Reading your own writes"). Default 5 000 ms; 0 turns it off.
   */
  readYourWritesMs?: number;
}

export type QueryValue = string | number | boolean | undefined | null;

export interface ApiRequest {
  method: string;
  path: string;
  query?: Record<string, QueryValue> | URLSearchParams;
  json?: unknown;
  /** `application/x-www-form-urlencoded`, as the OAuth endpoints take it (RFC 6749 §4.1.3). */
  form?: Record<string, string | undefined>;
  headers?: Record<string, string>;
  /** `bearer` (default): the access token when one is held, refreshed on a 401. `none`: never sent. */
  auth?: 'bearer' | 'none';
  signal?: AbortSignal;
  /** The request outlives the page (fetch `keepalive`): a leave sent as the tab closes. */
  keepalive?: boolean;
  /**
   * An upload body, built for each attempt (a stream can be read only once, so the retry after a
   * refresh builds it again): a stream, or a Blob, which browsers send where they refuse a stream.
   */
  stream?: () => Promise<{ body: ReadableStream<Uint8Array> | Blob; headers: Record<string, string> }>;
}

/** The fetch options a stream body needs. */
const STREAM_BODY = {
  // Node's fetch refuses a stream body without it.
  duplex: 'half',
  // Otherwise Node's fetch clones the request to be able to follow a redirect, teeing the body
  // into a branch nobody reads, which keeps every chunk of the file in memory. A stream body
  // could not be sent again after a redirect anyway.
  redirect: 'error',
  window: null,
} as RequestInit;

/** Proactive refresh margin for uploads: a token this close to its expiry is refreshed before the body is sent. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * Requests, the held tokens and the refresh rule of the spec ("Errors"): a 401 (never a 403)
 * to a request that carried a refreshable token refreshes it once and repeats the request once.
 * Concurrent 401s share one refresh; a refresh that fails leaves the original 401 to the caller.
 */
export class Transport {
  readonly fetchImpl: typeof fetch;
  readonly now: () => number;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private current?: ClientTokens;
  private inflight?: Promise<ClientTokens>;
  private readonly readYourWritesMs: number;
  /** Until when reads ask for a fresh answer (the last write's time + `readYourWritesMs`). */
  private freshUntil = 0;

  constructor(private readonly opts: TransportOptions) {
    this.readYourWritesMs = opts.readYourWritesMs ?? 5_000;
    this.fetchImpl = opts.fetch ?? ((input, init) => fetch(input, init));
    this.current = opts.tokens;
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? defaultSleep;
  }

  get tokens(): ClientTokens | undefined {
    return this.current;
  }

  async setTokens(tokens: ClientTokens | undefined): Promise<void> {
    this.current = tokens;
    await this.opts.onTokens?.(tokens);
  }

  /** Sets the tokens without telling `onTokens` (`setToken`, the constructor's own). */
  replaceTokens(tokens: ClientTokens | undefined): void {
    this.current = tokens;
  }

  url(path: string, query?: ApiRequest['query']): string {
    const params = query instanceof URLSearchParams ? query : toSearchParams(query);
    const qs = params.toString();
    return `${this.opts.baseUrl.replace(/\/$/, '')}${path}${qs ? `?${qs}` : ''}`;
  }

  /** The `data`-or-error JSON of a request. An empty body is `{}`. */
  async json<T>(req: ApiRequest): Promise<T> {
    return readJson<T>(await this.send(req));
  }

  /** The response of a request (2xx or not), after the one refresh-and-retry a 401 may earn. */
  async send(req: ApiRequest): Promise<Response> {
    const used = req.auth === 'none' ? undefined : this.current;
    // An upload is costly to send twice: refresh first when the token is known to be (nearly) expired.
    if (req.stream && used?.refreshToken && this.expiresSoon(used)) await this.replacementFor(used);
    const sentWith = req.auth === 'none' ? undefined : this.current;
    const res = await this.fetchOnce(req, sentWith);
    if (res.status !== 401 || !sentWith?.refreshToken) return res;
    const fresh = await this.replacementFor(sentWith);
    if (!fresh) return res;
    await res.body?.cancel().catch(() => undefined);
    return this.fetchOnce(req, fresh);
  }

  /** Exchanges the held refresh token now; a refusal forgets the tokens and is thrown. */
  async refresh(): Promise<ClientTokens> {
    const used = this.current;
    if (!used?.refreshToken) throw new Error('No refresh token is held: sign in first');
    return this.sharedRefresh(used);
  }

  private expiresSoon(tokens: ClientTokens): boolean {
    return tokens.expiresAt !== undefined && Date.parse(tokens.expiresAt) - EXPIRY_MARGIN_MS <= this.now();
  }

  private async fetchOnce(req: ApiRequest, tokens: ClientTokens | undefined): Promise<Response> {
    const headers: Record<string, string> = {};
    // Read-your-writes across nodes (docs/client.md, "Reading your own writes"): for a while after a
    // write, reads ask for a fresh answer, so a node that has not heard of the write yet does not
    // answer from its cache.
    const reads = req.method === 'GET' || req.method === 'HEAD';
    if (reads && this.now() < this.freshUntil) headers['cache-control'] = 'no-cache';
    let body: RequestInit['body'];
    let extra: RequestInit = {};
    if (req.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.json);
    } else if (req.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = toSearchParams(req.form).toString();
    } else if (req.stream) {
      const built = await req.stream();
      Object.assign(headers, built.headers);
      body = built.body;
      // A Blob has a known length and can be sent again; only a stream needs these options.
      if (built.body instanceof ReadableStream) extra = STREAM_BODY;
    }
    if (tokens) headers.authorization = `Bearer ${tokens.accessToken}`;
    const res = await this.fetchImpl(this.url(req.path, req.query), {
      method: req.method,
      headers: { ...headers, ...req.headers },
      body,
      signal: req.signal,
      ...(req.keepalive ? { keepalive: true } : {}),
      ...extra,
    });
    // From the answer on: the write is committed by then, whichever node took it.
    // Signing in, refreshing or out writes no content, nor does a presence heartbeat (docs/realtime.md, "Presence").
    if (!reads && this.readYourWritesMs > 0 && !req.path.startsWith('/auth/') && !req.path.startsWith('/presence/'))
      this.freshUntil = this.now() + this.readYourWritesMs;
    return res;
  }

  /** The tokens to use instead of `used` (after a 401), or undefined when there are none (the 401 stands). */
  private async replacementFor(used: ClientTokens): Promise<ClientTokens | undefined> {
    // Another request refreshed (or the caller signed out) since this one was sent.
    if (this.current !== used) return this.current;
    try {
      return await this.sharedRefresh(used);
    } catch {
      return undefined;
    }
  }

  private sharedRefresh(used: ClientTokens): Promise<ClientTokens> {
    this.inflight ??= this.runRefresh(used).finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  private async runRefresh(used: ClientTokens): Promise<ClientTokens> {
    let fresh: ClientTokens;
    try {
      fresh = used.kind === 'oauth' ? await this.oauthRefresh(used) : await this.sessionRefresh(used);
    } catch (err) {
      // A refusal (spent or revoked refresh token, RFC 6749 §5.2 `invalid_grant`) ends the sign-in;
      // a network failure keeps the tokens for a later try.
      if (err instanceof VellumApiError && this.current === used) await this.setTokens(undefined);
      throw err;
    }
    if (this.current === used) await this.setTokens(fresh);
    return fresh;
  }

  private async sessionRefresh(used: ClientTokens): Promise<ClientTokens> {
    const { data } = await this.json<{ data: { token: string; refreshToken: string; expiresAt: string } }>({
      method: 'POST',
      path: '/auth/refresh',
      json: { refreshToken: used.refreshToken },
      auth: 'none',
    });
    return { kind: 'session', accessToken: data.token, refreshToken: data.refreshToken, expiresAt: data.expiresAt };
  }

  private async oauthRefresh(used: ClientTokens): Promise<ClientTokens> {
    const body = await this.json<OAuthTokenResponse>({
      method: 'POST',
      path: '/auth/token',
      form: { grant_type: 'refresh_token', refresh_token: used.refreshToken, client_id: used.clientId },
      auth: 'none',
    });
    return oauthTokens(body, used.clientId, this.now());
  }
}

/** The token endpoint's success body (RFC 6749 §5.1). */
export interface OAuthTokenResponse {
  access_token: string;
  token_type: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
}

export function oauthTokens(body: OAuthTokenResponse, clientId: string | undefined, now: number): ClientTokens {
  return {
    kind: 'oauth',
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    clientId,
    expiresAt: body.expires_in !== undefined ? new Date(now + body.expires_in * 1000).toISOString() : undefined,
    scope: body.scope,
  };
}

/** The body as JSON, or a VellumApiError. */
export async function readJson<T>(res: Response): Promise<T> {
  const text = await res.text();
  if (!res.ok) throw apiErrorFrom(res, text);
  return (text ? JSON.parse(text) : {}) as T;
}

export function toSearchParams(query: Record<string, QueryValue> | undefined): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) params.append(key, String(value));
  return params;
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
