import { errors } from '../../errors.js';
import type { Services } from '../services.js';

/** With `oauth2.enabled` unset every authorization-server endpoint answers 501 (the spec's "Authorization server"). */
export function requireOAuth2(svc: Services): void {
  if (!svc.config.oauth2.enabled) throw errors.notImplemented('The OAuth 2.0 authorization server is not enabled (oauth2.enabled)');
}
