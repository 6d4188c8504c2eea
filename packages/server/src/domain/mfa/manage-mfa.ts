import { errors } from '../../errors.js';
import { inTransaction } from '../../storage/connection.js';
import { countUnusedBackupCodes, deleteMfaMethods, listMfaMethods, type MfaMethodName } from '../../storage/identity/mfa-store.js';
import { deleteTrustedDevices } from '../../storage/identity/trusted-devices-store.js';
import { findUserById } from '../../storage/identity/users-store.js';
import { requireAdminRole } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { recordAudit } from '../audit/record-audit.js';
import { verifyPassword } from '../identity/passwords.js';
import type { Services } from '../services.js';
import { issueBackupCodes } from './backup-codes.js';
import { countTrustedDevices, signedInUserId } from './trusted-devices.js';

/** `GET /auth/mfa/status`: enabled methods, unused backup codes and live trusted devices (a count). */
export async function mfaStatus(svc: Services, actor: Principal) {
  const userId = signedInUserId(actor);
  return {
    methods: await enabledMethods(svc, userId),
    backupCodesRemaining: await countUnusedBackupCodes(svc.database, userId),
    trustedDevices: await countTrustedDevices(svc, userId),
  };
}

/** `POST /auth/mfa/disable {method, password}`: removes one method (404 when it is not set up). */
export async function disableMfaMethod(svc: Services, actor: Principal, input: { method: MfaMethodName; password: string }) {
  const userId = await reconfirmPassword(svc, actor, input.password);
  const left = await inTransaction(svc.database, async (conn) => {
    if ((await deleteMfaMethods(conn, userId, input.method)) === 0) throw errors.notFound(`The method ${input.method} is not set up`);
    const rest = (await listMfaMethods(conn, userId)).filter((m) => m.enabledAt !== null);
    // Without any method left, trusted devices skip nothing: they go too.
    if (rest.length === 0) await deleteTrustedDevices(conn, userId);
    return rest.length;
  });
  await recordAudit(svc, 'mfaDisable', { actor, target: userId, details: { method: input.method, remaining: left } });
}

/** `POST /auth/mfa/disable-all {password}`: every method, backup code and trusted device. */
export async function disableAllMfa(svc: Services, actor: Principal, password: string) {
  const userId = await reconfirmPassword(svc, actor, password);
  await removeAllMfa(svc, userId);
  await recordAudit(svc, 'mfaDisable', { actor, target: userId, details: { method: 'all' } });
}

/** `POST /auth/mfa/backup-codes/regenerate {password}`: a new set; the old set stops working. */
export async function regenerateBackupCodes(svc: Services, actor: Principal, password: string): Promise<string[]> {
  const userId = await reconfirmPassword(svc, actor, password);
  if ((await enabledMethods(svc, userId)).length === 0) throw errors.conflict('Enable an MFA method first');
  return inTransaction(svc.database, (conn) => issueBackupCodes(conn, userId, svc.now().toISOString()));
}

/** `POST /admin/users/:userId/mfa/reset`: the admin role itself, never a permission (docs/api.md). */
export async function adminResetMfa(svc: Services, actor: Principal, userId: string): Promise<void> {
  requireAdminRole(actor);
  if (!(await findUserById(svc.database, userId))) throw errors.notFound('User not found');
  await removeAllMfa(svc, userId);
  await recordAudit(svc, 'mfaReset', { actor, target: userId });
}

export async function enabledMethods(svc: Services, userId: string): Promise<MfaMethodName[]> {
  return (await listMfaMethods(svc.database, userId)).filter((m) => m.enabledAt !== null).map((m) => m.method);
}

async function removeAllMfa(svc: Services, userId: string): Promise<void> {
  await inTransaction(svc.database, async (conn) => {
    await deleteMfaMethods(conn, userId);
    await deleteTrustedDevices(conn, userId);
  });
}

/** A signed-in user re-confirms with the password; a wrong one is 403, never 401 (the session is fine). */
async function reconfirmPassword(svc: Services, actor: Principal, password: string): Promise<string> {
  const userId = signedInUserId(actor);
  const user = await findUserById(svc.database, userId);
  if (!user) throw errors.unauthorized('Session not found');
  if (!(await verifyPassword(password, user.passwordHash, svc.config.security.bcryptRounds)))
    throw errors.forbidden('The password is wrong');
  return userId;
}
