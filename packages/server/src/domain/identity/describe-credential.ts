import { requireAuthenticated } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { findClient } from '../oauth2/clients.js';
import type { Services } from '../services.js';
import { currentUser } from './current-user.js';

/** What `POST /auth/validate` says about a valid credential (docs/api.md, "Authentication"). */
export interface CredentialView {
  valid: true;
  kind: 'user' | 'token' | 'oauth';
  user?: { id: string; username: string; role: string; name: string };
  token?: { id: string; name: string };
  oauth?: { client: { id: string; name: string }; scopes: string[] };
  sessionId?: string;
  /**
   * The role the credential acts with: the user's for a session, `api` for API tokens, and
   * `oauth` for OAuth access tokens, which never act with their user's role (docs/oauth2.md, "Scopes").
   */
  role: string;
  permissions: string[];
}

export async function describeCredential(svc: Services, p: Principal): Promise<CredentialView> {
  requireAuthenticated(p);
  const permissions = [...p.permissions].sort();
  if (p.kind === 'oauth' && p.oauth) {
    // The user's own role, as `GET /auth/me` shows it with this token; the token itself has none.
    const user = await currentUser(svc, p);
    const clientId = p.oauth.clientId;
    return {
      valid: true,
      kind: 'oauth',
      user: { id: user.id, username: user.username, role: user.role, name: user.name },
      oauth: { client: { id: clientId, name: findClient(svc, clientId)?.name ?? clientId }, scopes: [...p.oauth.scopes] },
      role: 'oauth',
      permissions,
    };
  }
  return {
    valid: true,
    kind: p.kind === 'user' ? 'user' : 'token',
    user:
      p.kind === 'user'
        ? { id: p.id as string, username: p.username as string, role: p.role as string, name: p.name as string }
        : undefined,
    token: p.kind === 'token' ? { id: p.id as string, name: p.name as string } : undefined,
    sessionId: p.sessionId,
    role: p.role ?? 'api',
    permissions,
  };
}
