import type { ListResult } from './list-result.js';
import type { Transport } from './transport.js';

/** An API token's stored record (docs/api.md, "API tokens"): never the token itself. */
export interface ApiToken {
  id: string;
  name: string;
  permissions: string[];
  expiresAt: string | null;
  createdBy: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface NewApiToken {
  name: string;
  permissions: string[];
  /** ISO 8601 with a time zone; omitted, the token never expires. */
  expiresAt?: string;
}

/** `/tokens`. */
export class ApiTokensApi {
  constructor(private readonly t: Transport) {}

  list(query: { limit?: number; offset?: number } = {}): Promise<ListResult<ApiToken>> {
    return this.t.json({ method: 'GET', path: '/tokens', query: { ...query } });
  }

  /** `token` (`vlm_…`) is shown this once. */
  async create(token: NewApiToken): Promise<{ token: string; apiToken: ApiToken }> {
    return (await this.t.json<{ data: { token: string; apiToken: ApiToken } }>({ method: 'POST', path: '/tokens', json: token })).data;
  }

  async delete(id: string): Promise<void> {
    await this.t.json({ method: 'DELETE', path: `/tokens/${encodeURIComponent(id)}` });
  }
}
