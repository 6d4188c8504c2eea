import { errors } from '../../errors.js';
import { findUserByEmail, findUserById, findUserByUsername, listUsers as listRows } from '../../storage/identity/users-store.js';
import { isRole } from '../access/permissions.js';
import { requirePermission } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { toUserView, type UserView } from '../identity/user-view.js';
import { parsePaging } from '../shared/paging.js';
import type { Services } from '../services.js';

export interface ListUsersQuery {
  limit?: unknown;
  offset?: unknown;
  role?: string;
  active?: string;
  search?: string;
}

/** `GET /users`: `users:read`; filters by role, active flag and a search over names and email. */
export async function listUsers(svc: Services, actor: Principal, query: ListUsersQuery) {
  requirePermission(actor, 'users:read');
  const { limit, offset } = parsePaging(query.limit, query.offset);
  if (query.role !== undefined && !isRole(query.role))
    throw errors.invalidInput(`role: unknown role ${query.role}`, [{ field: 'role', message: 'unknown role' }]);
  if (query.active !== undefined && query.active !== 'true' && query.active !== 'false') {
    throw errors.invalidInput('active must be true or false', [{ field: 'active', message: 'must be true or false' }]);
  }
  const { rows, total } = await listRows(svc.database, {
    limit,
    offset,
    role: query.role,
    active: query.active === undefined ? undefined : query.active === 'true',
    search: query.search?.trim() || undefined,
  });
  return { data: rows.map(toUserView), meta: { total, limit, offset } };
}

/** `GET /users/:id`: `users:read`. */
export async function getUser(svc: Services, actor: Principal, id: string): Promise<UserView> {
  requirePermission(actor, 'users:read');
  const user = await findUserById(svc.database, id);
  if (!user) throw errors.notFound('User not found');
  return toUserView(user);
}

/** `GET /users/by-username/:u` and `/users/by-email/:e`: lookups that reveal existence, so `users:write` (spec). */
export async function findUserBy(svc: Services, actor: Principal, by: 'username' | 'email', value: string): Promise<UserView> {
  requirePermission(actor, 'users:write');
  const user = by === 'username' ? await findUserByUsername(svc.database, value) : await findUserByEmail(svc.database, value);
  if (!user) throw errors.notFound('User not found');
  return toUserView(user);
}
