import type { ApiToken } from '@vellum/client';
import { errors, type ErrorDetail } from '../../errors.js';
import { deleteApiToken, insertApiToken, listApiTokens as listRows, type StoredApiToken } from '../../storage/identity/api-tokens-store.js';
import { isValidPermission } from '../access/permissions.js';
import { canGrant, requirePermission } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { uuidv7 } from '../shared/ids.js';
import { parsePaging } from '../shared/paging.js';
import type { Services } from '../services.js';
import { recordAudit } from '../audit/record-audit.js';
import { newApiToken, sha256Hex } from './secrets.js';
import { DATETIME } from '../documents/validate-document.js';

/** The stored record as served, never the hash; declared once, by the client (docs/architecture.md, "Packages"). */
export type ApiTokenView = ApiToken;

export function toApiTokenView(t: StoredApiToken): ApiTokenView {
  return {
    id: t.id,
    name: t.name,
    permissions: t.permissions,
    expiresAt: t.expiresAt,
    createdBy: t.createdBy,
    createdAt: t.createdAt,
    lastUsedAt: t.lastUsedAt,
  };
}

export interface CreateTokenInput {
  name: string;
  permissions: string[];
  expiresAt?: string;
}

/** `POST /tokens`: the plaintext is returned here once; only its SHA-256 is stored. */
export async function createApiToken(
  svc: Services,
  actor: Principal,
  input: CreateTokenInput,
): Promise<{ token: string; apiToken: ApiTokenView }> {
  // 1. Permission to create tokens.
  requirePermission(actor, 'tokens:write');
  // 2. Name, permission strings and expiry.
  const details: ErrorDetail[] = [];
  const name = input.name.trim();
  if (name === '' || name.length > 200) details.push({ field: 'name', message: 'must be 1–200 characters' });
  input.permissions.forEach((p, i) => {
    if (!isValidPermission(p, svc.schemas.names))
      details.push({ field: `permissions.${i}`, message: `unknown permission ${JSON.stringify(p)}` });
  });
  let expiresAt: string | null = null;
  if (input.expiresAt !== undefined) {
    const ms = Date.parse(input.expiresAt);
    if (!DATETIME.test(input.expiresAt) || Number.isNaN(ms))
      details.push({ field: 'expiresAt', message: 'must be an ISO 8601 date-time with a time zone' });
    else if (ms <= svc.now().getTime()) details.push({ field: 'expiresAt', message: 'must be in the future' });
    else expiresAt = new Date(ms).toISOString();
  }
  if (details.length > 0) throw errors.validation(details);
  // 3. A caller gives away only what it holds.
  const beyond = input.permissions.filter((p) => !canGrant(actor, p, svc.schemas.names));
  if (beyond.length > 0) throw errors.forbidden(`You cannot grant permissions you do not hold: ${beyond.join(', ')}`);
  // 4. Store the hash, return the plaintext once.
  const token = newApiToken();
  const stored: StoredApiToken = {
    id: uuidv7(),
    name,
    tokenHash: sha256Hex(token),
    permissions: [...new Set(input.permissions)],
    createdBy: 'system',
    createdAt: svc.now().toISOString(),
    expiresAt,
    lastUsedAt: null,
  };
  await insertApiToken(svc.database, stored);
  await recordAudit(svc, 'tokenCreate', { actor, target: stored.id, details: { name, permissions: stored.permissions } });
  return { token, apiToken: toApiTokenView(stored) };
}

export async function listApiTokens(svc: Services, actor: Principal, query: { limit?: unknown; offset?: unknown }) {
  requirePermission(actor, 'tokens:read');
  const { limit, offset } = parsePaging(query.limit, query.offset);
  const { rows, total } = await listRows(svc.database, limit, offset);
  return { data: rows.map(toApiTokenView), meta: { total, limit, offset } };
}

/** `DELETE /tokens/:id`: the token stops working at once on this node. */
export async function revokeApiToken(svc: Services, actor: Principal, id: string): Promise<void> {
  requirePermission(actor, 'tokens:delete');
  const removed = await deleteApiToken(svc.database, id);
  if (!removed) throw errors.notFound('API token not found');
  svc.apiTokenCache.delete(removed.tokenHash);
  await recordAudit(svc, 'tokenRevoke', { actor, target: id, details: { name: removed.name } });
}
