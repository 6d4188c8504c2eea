import { errors } from '../../errors.js';
import { requireAuthenticated } from '../access/policy.js';
import type { Principal } from '../access/principal.js';

/**
 * Consent is a person's act (RFC 6749 §4.1.1: the server "obtains an authorization decision" from
 * the resource owner): a signed-in user, by bearer session or cookie. An API token or an OAuth
 * access token cannot grant a client anything: 403.
 */
export function requireConsentingUser(actor: Principal): asserts actor is Principal & { id: string } {
  requireAuthenticated(actor);
  if (actor.kind !== 'user' || !actor.id) throw errors.forbidden('Only a signed-in user can authorize a client');
}
