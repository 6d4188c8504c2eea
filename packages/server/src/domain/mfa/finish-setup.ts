import { errors } from '../../errors.js';
import { inTransaction } from '../../storage/connection.js';
import { enableMfaMethod, listMfaMethods, type MfaMethodName } from '../../storage/identity/mfa-store.js';
import { spendUserMfaTokens } from '../../storage/identity/mfa-tokens-store.js';
import type { Principal } from '../access/principal.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ClientInfo } from '../identity/sessions.js';
import { openSignedInSession } from '../identity/sign-in-outcome.js';
import type { Services } from '../services.js';
import { issueBackupCodes } from './backup-codes.js';
import type { SetupCaller } from './setup-caller.js';

/**
 * The end of every method's setup, once its code was right: the method is enabled, the first one
 * also issues backup codes, and a login held at `requiresMFASetup` gets its session.
 */
export async function finishMfaSetup(
  svc: Services,
  caller: SetupCaller,
  method: MfaMethodName,
  /** The TOTP step the code was for, and the sealed secret it was checked against (null and none for email). */
  checked: { lastStep: number | null; secretEnc?: string },
  client: ClientInfo,
) {
  const userId = caller.user.id;
  const first = !(await listMfaMethods(svc.database, userId)).some((m) => m.enabledAt !== null);
  const backupCodes = await inTransaction(svc.database, async (conn) => {
    const at = svc.now().toISOString();
    if (!(await enableMfaMethod(conn, userId, method, at, checked.lastStep, checked.secretEnc)))
      throw errors.conflict(`The method ${method} is already enabled, or its setup was started again; confirm the newest setup`);
    // The setup token has done its job: neither it nor any other of the user's opens a login again.
    if (caller.setupToken) await spendUserMfaTokens(conn, userId, 'setup', at);
    return first ? issueBackupCodes(conn, userId, at) : undefined;
  });
  await svc.mfaLimiter.clear(`account:${userId}`);
  const actor: Principal = { kind: 'user', id: userId, role: null, permissions: new Set(), client };
  await recordAudit(svc, 'mfaEnable', { actor, target: userId, details: { method } });
  const result = { enabled: true as const, ...(backupCodes && { backupCodes }) };
  if (!caller.setupToken) return result;
  const session = await openSignedInSession(
    svc,
    { ...caller.user, mfaEnabled: true },
    { ...client, rememberMe: caller.setupToken.rememberMe },
  );
  return { ...result, ...session.tokens, user: session.user };
}
