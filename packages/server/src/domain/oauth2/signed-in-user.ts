import { errors } from '../../errors.js';
import type { Principal } from '../access/principal.js';

/**
 * The user behind a session (bearer or cookie). Approving a device and managing grants are a
 * user's own acts: an API token or an OAuth access token never does them (403), so a token cannot
 * approve more tokens (docs/oauth2.md, "Device flow").
 */
export function requireSignedInUser(actor: Principal): string {
  if (actor.kind === 'anonymous') throw errors.unauthorized('Authentication required');
  if (actor.kind !== 'user' || !actor.id) throw errors.forbidden('Only a signed-in user can do this, not an API or OAuth token');
  return actor.id;
}
