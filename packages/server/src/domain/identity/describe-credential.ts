import type { TokenValidation } from '@vellum/client';
import { requireAuthenticated } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { findClient } from '../oauth2/clients.js';
import type { Services } from '../services.js';
import { currentUser } from './current-user.js';

/** What `POST /auth/validate` says about a valid credential (docs/api.md, "Authentication"); declared by the client. */
export type CredentialView = TokenValidation;

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
