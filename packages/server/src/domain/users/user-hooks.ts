import { errors } from '../../errors.js';
import type { UserHookInput } from '../../config/types.js';
import type { Services } from '../services.js';

/**
 * Runs `security.validateUser` and `security.assignRole` for a user about to be created (by the
 * users API today, by identity-provider sign-in later). `validateUser` refuses with `false`, a
 * message string or a thrown error (422); `assignRole` may return the role to use.
 */
export async function runUserHooks(svc: Services, user: UserHookInput): Promise<string> {
  const { validateUser, assignRole } = svc.config.security;
  if (validateUser) {
    let verdict: unknown;
    try {
      verdict = await validateUser({ ...user });
    } catch (err) {
      throw errors.validation([{ field: '(user)', message: (err as Error).message || 'refused by validateUser' }]);
    }
    if (verdict === false) throw errors.validation([{ field: '(user)', message: 'refused by validateUser' }]);
    if (typeof verdict === 'string') throw errors.validation([{ field: '(user)', message: verdict }]);
  }
  if (assignRole) {
    const role = await assignRole({ ...user });
    if (typeof role === 'string' && role !== '') return role;
  }
  return user.role;
}
