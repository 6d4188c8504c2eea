import { errors } from '../../errors.js';
import { findUserById } from '../../storage/identity/users-store.js';
import { requireAuthenticated } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';
import { toUserView, type UserView } from './user-view.js';

/**
 * `GET /auth/me`: the signed-in user, also behind an OAuth access token (whose user it is: what
 * `vellum whoami` shows); API tokens are not users, so they get 403.
 */
export async function currentUser(svc: Services, actor: Principal): Promise<UserView> {
  requireAuthenticated(actor);
  if ((actor.kind !== 'user' && actor.kind !== 'oauth') || !actor.id)
    throw errors.forbidden('API tokens have no user; use POST /auth/validate');
  const user = await findUserById(svc.database, actor.id);
  if (!user) throw errors.unauthorized('Session not found');
  return toUserView(user);
}
