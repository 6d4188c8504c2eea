import { errors, type ErrorDetail } from '../../errors.js';
import { inTransaction, type Conn } from '../../storage/connection.js';
import { recordChanges } from '../events/record-changes.js';
import { userEvent } from './user-events.js';
import { findUserByEmail, findUserByUsername, insertUser as insertRow, type StoredUser } from '../../storage/identity/users-store.js';
import { writeUnlessTaken } from '../../storage/write-unless-taken.js';
import { isRole, isValidPermission, ROLES } from '../access/permissions.js';
import { uuidv7 } from '../shared/ids.js';
import type { Services } from '../services.js';
import { checkPasswordPolicy, hashPassword } from './passwords.js';

export interface NewUser {
  username: string;
  email: string;
  password?: string;
  firstName?: string;
  lastName?: string;
  role: string;
  permissions?: string[];
  active?: boolean;
}

const USERNAME = /^[A-Za-z0-9._-]{1,64}$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** The field checks of a new user, as 422 details. */
export function checkNewUser(svc: Services, u: NewUser): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (!USERNAME.test(u.username))
    details.push({ field: 'username', message: 'must be 1–64 characters of letters, digits, ".", "_" or "-"' });
  if (u.email.length > 254 || !EMAIL.test(u.email)) details.push({ field: 'email', message: 'must be an email address' });
  if (!isRole(u.role)) details.push({ field: 'role', message: `must be one of ${ROLES.join(', ')}` });
  (u.permissions ?? []).forEach((p, i) => {
    if (!isValidPermission(p, svc.schemas.names))
      details.push({ field: `permissions.${i}`, message: `unknown permission ${JSON.stringify(p)}` });
  });
  if (u.password !== undefined) details.push(...checkPasswordPolicy(u.password, svc.config.security.passwordPolicy));
  return details;
}

/** Inserts a user after the checks; duplicate username or email is 409. */
export async function insertUser(svc: Services, conn: Conn, u: NewUser): Promise<StoredUser> {
  const details = checkNewUser(svc, u);
  if (details.length > 0) throw errors.validation(details);
  const email = u.email.toLowerCase();
  const taken: ErrorDetail[] = [];
  if (await findUserByUsername(conn, u.username)) taken.push({ field: 'username', message: 'is taken' });
  if (await findUserByEmail(conn, email)) taken.push({ field: 'email', message: 'is taken' });
  if (taken.length > 0) throw errors.conflict('A user with this username or email exists', taken);
  const at = svc.now().toISOString();
  const user: StoredUser = {
    id: uuidv7(),
    username: u.username,
    email,
    passwordHash: u.password !== undefined ? await hashPassword(u.password, svc.config.security.bcryptRounds) : null,
    firstName: u.firstName ?? null,
    lastName: u.lastName ?? null,
    role: u.role,
    permissions: u.permissions ?? [],
    active: u.active ?? true,
    createdAt: at,
    updatedAt: at,
    lastLogin: null,
  };
  // A concurrent insert can take the username or email between the checks and this write. The
  // row and its `user.created` event commit together (in the caller's transaction, if any).
  return inTransaction(conn, async (tx) => {
    const insert = await writeUnlessTaken(tx, () => insertRow(tx, user));
    if (!insert.written) throw errors.conflict('A user with this username or email exists');
    await recordChanges(svc, tx, [userEvent('user.created', user, at)]);
    return user;
  });
}
