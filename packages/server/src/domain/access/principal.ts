import type { Role } from './permissions.js';

/** Who is calling: resolved once per request from the bearer (or nothing), then passed to operations. */
export interface Principal {
  /**
   * `oauth`: a user acting through an OAuth access token, with its scopes and never its role.
   * `preview`: a preview token (docs/preview.md): `<type>:read` on the types it names, nothing else.
   */
  kind: 'anonymous' | 'user' | 'token' | 'oauth' | 'preview';
  /** User id (also for `oauth`), API-token id, or for `preview` its issuer (`actorId` of who issued it). */
  id: string | null;
  role: Role | null;
  /** Effective permissions: role defaults plus the explicit list (users) or the token's own list. */
  permissions: ReadonlySet<string>;
  sessionId?: string;
  username?: string;
  name?: string;
  /** The client, grant and scopes of an OAuth access token. */
  oauth?: { clientId: string; grantId: string; scopes: readonly string[] };
  /** Where the request came from (set per request by the HTTP layer), for the audit log. */
  client?: { ip?: string; userAgent?: string };
}

export const ANONYMOUS: Principal = Object.freeze({ kind: 'anonymous', id: null, role: null, permissions: new Set<string>() });

/** The id recorded as `_createdBy` / `_updatedBy`. */
export function actorId(p: Principal): string | null {
  if (p.kind === 'token') return `token:${p.id}`;
  return p.id;
}
