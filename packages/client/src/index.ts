import type { Media, MediaListQuery, MediaUpdate, UploadInput, UploadMediaOptions } from './media.js';
import { multipartUploadBody } from './multipart-upload-body.js';

export type { Media, MediaListQuery, MediaOrderField, MediaUpdate, UploadInput, UploadMediaOptions } from './media.js';
export { multipartUploadBody, type MultipartUploadBody } from './multipart-upload-body.js';

/**
 * The typed HTTP client for Vellum, used by the CLI, the studio and users' own code.
 * This first cut covers sign-in, documents and media; later features add their calls here.
 */
export interface VellumError {
  code: string;
  message: string;
  details?: Array<{ field: string; message: string }>;
  retryAfter?: number;
}

export class VellumApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: VellumError,
  ) {
    super(`${status} ${error.code}: ${error.message}`);
    this.name = 'VellumApiError';
  }
}

export interface ClientOptions {
  baseUrl: string;
  token?: string;
  fetch?: typeof fetch;
}

export interface ListMeta {
  total: number;
  limit: number;
  offset: number;
}

export type Document = Record<string, unknown> & { _id: string; _type: string; _status: string; _rev: number };

export class VellumClient {
  private token?: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly opts: ClientOptions) {
    this.token = opts.token;
    this.fetchImpl = opts.fetch ?? fetch;
  }

  setToken(token: string | undefined): void {
    this.token = token;
  }

  async request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const res = await this.fetchImpl(this.url(path), {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...this.authHeader(),
        ...headers,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    return readJson<T>(res);
  }

  private url(path: string): string {
    return `${this.opts.baseUrl.replace(/\/$/, '')}${path}`;
  }

  private authHeader(): Record<string, string> {
    return this.token ? { authorization: `Bearer ${this.token}` } : {};
  }

  async login(username: string, password: string): Promise<{ token: string; refreshToken: string; expiresAt: string }> {
    const { data } = await this.request<{ data: { token: string; refreshToken: string; expiresAt: string } }>('POST', '/auth/login', {
      username,
      password,
    });
    this.token = data.token;
    return data;
  }

  list(type: string, query: Record<string, string | number> = {}): Promise<{ data: Document[]; meta: ListMeta }> {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return this.request('GET', `/documents/${encodeURIComponent(type)}${qs ? `?${qs}` : ''}`);
  }

  async get(type: string, id: string, expand?: string): Promise<Document> {
    const qs = expand ? `?expand=${encodeURIComponent(expand)}` : '';
    return (await this.request<{ data: Document }>('GET', `/documents/${encodeURIComponent(type)}/${encodeURIComponent(id)}${qs}`)).data;
  }

  async create(type: string, doc: Record<string, unknown>): Promise<Document> {
    return (await this.request<{ data: Document }>('POST', `/documents/${encodeURIComponent(type)}`, doc)).data;
  }

  async patch(type: string, id: string, patch: Record<string, unknown>, ifMatch?: number): Promise<Document> {
    const headers: Record<string, string> = ifMatch !== undefined ? { 'if-match': `"${ifMatch}"` } : {};
    return (
      await this.request<{ data: Document }>('PATCH', `/documents/${encodeURIComponent(type)}/${encodeURIComponent(id)}`, patch, headers)
    ).data;
  }

  async delete(type: string, id: string, force = false): Promise<void> {
    await this.request('DELETE', `/documents/${encodeURIComponent(type)}/${encodeURIComponent(id)}${force ? '?force=true' : ''}`);
  }

  listMedia(query: MediaListQuery = {}): Promise<{ data: Media[]; meta: ListMeta }> {
    const entries = Object.entries(query)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]): [string, string] => [k, String(v)]);
    const qs = new URLSearchParams(entries).toString();
    return this.request('GET', `/media${qs ? `?${qs}` : ''}`);
  }

  async getMedia(id: string): Promise<Media> {
    return (await this.request<{ data: Media }>('GET', `/media/${encodeURIComponent(id)}`)).data;
  }

  async updateMedia(id: string, update: MediaUpdate): Promise<Media> {
    return (await this.request<{ data: Media }>('PATCH', `/media/${encodeURIComponent(id)}`, update)).data;
  }

  async deleteMedia(id: string, force = false): Promise<void> {
    await this.request('DELETE', `/media/${encodeURIComponent(id)}${force ? '?force=true' : ''}`);
  }

  /** The record of a file already in the library with these bytes, if any: lets a caller skip uploading it again. */
  async findMediaBySha256(hex: string): Promise<Media | undefined> {
    const { data } = await this.listMedia({ sha256: hex.toLowerCase(), limit: 1 });
    return data[0];
  }

  /**
   * `POST /media` with the file streamed from disk (a path, Node only) or from a Blob: never read
   * into memory whole. The body has a known length, so the request is not chunked.
   */
  async uploadMedia(input: UploadInput, opts: UploadMediaOptions = {}): Promise<Media> {
    const upload = await multipartUploadBody(input, opts);
    const res = await this.fetchImpl(this.url('/media'), {
      method: 'POST',
      headers: { ...this.authHeader(), 'content-type': upload.contentType, 'content-length': String(upload.length) },
      body: upload.body,
      // Node's fetch refuses a stream body without it.
      duplex: 'half',
      // Otherwise Node's fetch clones the request to be able to follow a redirect, teeing the body
      // into a branch nobody reads, which keeps every chunk of the file in memory. A stream body
      // could not be sent again after a redirect anyway.
      redirect: 'error',
      window: null,
      signal: opts.signal,
    });
    return (await readJson<{ data: Media }>(res)).data;
  }
}

/** The body as JSON, or a VellumApiError; an error page that is not JSON (a proxy's, say) keeps its status. */
async function readJson<T>(res: Response): Promise<T> {
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    if (text) json = JSON.parse(text) as Record<string, unknown>;
  } catch (err) {
    if (res.ok) throw err;
  }
  if (!res.ok)
    throw new VellumApiError(
      res.status,
      (json.error as VellumError) ?? { code: 'UNKNOWN', message: res.statusText || `HTTP ${res.status}` },
    );
  return json as T;
}
