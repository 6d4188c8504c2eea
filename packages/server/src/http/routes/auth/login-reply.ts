import type { FastifyReply } from 'fastify';
import type { LoginResult } from '../../../domain/identity/sign-in-outcome.js';
import type { Services } from '../../../domain/services.js';
import { setSessionCookies } from '../../cookies.js';

/**
 * The body of a first-factor sign-in (password, identity provider): tokens with the session
 * cookies, or what is still to give (docs/api.md, "Login"). Matches `LoginResult` in schemas.ts.
 */
export function loginReply(reply: FastifyReply, svc: Services, result: LoginResult) {
  if (result.outcome === 'requiresMFA')
    return { data: { requiresMFA: true as const, mfaToken: result.mfaToken, methods: result.methods, expiresAt: result.expiresAt } };
  if (result.outcome === 'requiresMFASetup')
    return {
      data: { requiresMFASetup: true as const, setupToken: result.setupToken, methods: result.methods, expiresAt: result.expiresAt },
    };
  setSessionCookies(reply, svc.config, result.tokens, svc.config.server.basePath);
  return { data: { ...result.tokens, user: result.user } };
}
