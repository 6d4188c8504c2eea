/**
 * The typed HTTP client for Vellum, used by the CLI, the studio and users' own code.
 * This first cut covers sign-in and documents; later features add their calls here.
 */
export interface VellumError {
  code: string;
  message: string;
  details?: Array<{ field: string; message: string }>;
  retryAfter?: number;
}

export class VellumApiError extends Error {
  constructor(readonly status: number, readonly error: VellumError) {
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
    const res = await this.fetchImpl(`${this.opts.baseUrl.replace(/\/$/, '')}${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...headers,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (!res.ok) throw new VellumApiError(res.status, (json.error as VellumError) ?? { code: 'UNKNOWN', message: res.statusText });
    return json as T;
  }

  async login(username: string, password: string): Promise<{ token: string; refreshToken: string; expiresAt: string }> {
    const { data } = await this.request<{ data: { token: string; refreshToken: string; expiresAt: string } }>('POST', '/auth/login', { username, password });
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
    return (await this.request<{ data: Document }>('PATCH', `/documents/${encodeURIComponent(type)}/${encodeURIComponent(id)}`, patch, headers)).data;
  }

  async delete(type: string, id: string, force = false): Promise<void> {
    await this.request('DELETE', `/documents/${encodeURIComponent(type)}/${encodeURIComponent(id)}${force ? '?force=true' : ''}`);
  }
}
