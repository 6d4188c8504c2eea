import { burnRefreshTokens, findRefreshToken } from '../../storage/identity/sessions-store.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';
import { recordAudit } from '../audit/record-audit.js';
import { sha256Hex } from './secrets.js';

/**
 * `POST /auth/logout`: the session's refresh tokens stop working. As the spec says, the access
 * token itself stays valid until it expires (clients drop it).
 */
export async function logout(svc: Services, actor: Principal, refreshToken?: string): Promise<void> {
  const now = svc.now().toISOString();
  if (actor.kind === 'user' && actor.sessionId) await burnRefreshTokens(svc.database, actor.sessionId, now);
  if (refreshToken) {
    const row = await findRefreshToken(svc.database, sha256Hex(refreshToken));
    if (row) await burnRefreshTokens(svc.database, row.sessionId, now);
  }
  if (actor.kind === 'user') await recordAudit(svc, 'logout', { actor, target: actor.id ?? undefined });
}
