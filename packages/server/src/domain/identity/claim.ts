import { errors } from '../../errors.js';
import { inTransaction } from '../../storage/connection.js';
import { getInstanceValue, takeInstanceValue } from '../../storage/settings/instance-store.js';
import { countUsers } from '../../storage/identity/users-store.js';
import type { Services } from '../services.js';
import { recordAudit } from '../audit/record-audit.js';
import { CLAIM_KEY } from './bootstrap.js';
import { insertUser } from './insert-user.js';
import { safeEqual, sha256Hex } from './secrets.js';
import { startSession, type ClientInfo } from './sessions.js';
import { toUserView } from './user-view.js';

export async function claimStatus(svc: Services): Promise<{ claimable: boolean }> {
  return { claimable: (await countUsers(svc.database)) === 0 && (await getInstanceValue(svc.database, CLAIM_KEY)) !== undefined };
}

export interface ClaimInput extends ClientInfo {
  token: string;
  username: string;
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
}

/** `POST /auth/claim`: the first admin, once, with the token printed at start-up. */
export async function claimInstance(svc: Services, input: ClaimInput) {
  const user = await inTransaction(svc.database, async (conn) => {
    const stored = await getInstanceValue(conn, CLAIM_KEY);
    if ((await countUsers(conn)) > 0 || stored === undefined) throw errors.forbidden('This instance has been claimed already');
    if (!safeEqual(stored, sha256Hex(input.token))) throw errors.forbidden('Invalid claim token');
    // Deleting the claim row is the lock: of two racing claims only one deletes it.
    if (!(await takeInstanceValue(conn, CLAIM_KEY, stored))) throw errors.forbidden('This instance has been claimed already');
    return insertUser(svc, conn, { ...input, role: 'admin' });
  });
  await recordAudit(svc, 'userCreate', {
    actor: null,
    target: user.id,
    details: { username: user.username, role: 'admin', via: 'claim' },
    client: input,
  });
  const tokens = await startSession(svc, user, input);
  return { ...tokens, user: toUserView(user) };
}
