import { errors } from '../../errors.js';
import { inTransaction } from '../../storage/connection.js';
import { requirePermission } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { insertUser, type NewUser } from '../identity/insert-user.js';
import { toUserView, type UserView } from '../identity/user-view.js';
import type { Services } from '../services.js';
import { recordAudit } from '../audit/record-audit.js';
import { requireCanAssign } from './user-grants.js';
import { runUserHooks } from './user-hooks.js';

export interface CreateUserInput {
  username: string;
  email: string;
  password?: string;
  firstName?: string;
  lastName?: string;
  role?: string;
  permissions?: string[];
  active?: boolean;
}

/** `POST /users`: `users:write`; the config's `validateUser` and `assignRole` hooks have the last word. */
export async function createUser(svc: Services, actor: Principal, input: CreateUserInput): Promise<UserView> {
  // 1. Permission, and what this caller may hand out.
  requirePermission(actor, 'users:write');
  // 2. Hooks: validation and role assignment from the config.
  const role = await runUserHooks(svc, { ...input, role: input.role ?? 'viewer' });
  requireCanAssign(svc, actor, role, input.permissions);
  // 3. An active user needs a password; an inactive one may get one later (invitations).
  const active = input.active ?? true;
  if (active && input.password === undefined) throw errors.validation([{ field: 'password', message: 'is required for an active user' }]);
  const user: NewUser = { ...input, role, active };
  const created = await inTransaction(svc.database, (conn) => insertUser(svc, conn, user));
  await recordAudit(svc, 'userCreate', { actor, target: created.id, details: { username: created.username, role: created.role } });
  return toUserView(created);
}
