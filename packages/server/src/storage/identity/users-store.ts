import { sql, type Selectable } from 'kysely';
import type { Conn } from '../connection.js';
import { escapeLike } from '../escape-like.js';
import type { UsersTable } from '../tables.js';

export interface StoredUser {
  id: string;
  username: string;
  email: string;
  passwordHash: string | null;
  firstName: string | null;
  lastName: string | null;
  role: string;
  permissions: string[];
  active: boolean;
  createdAt: string;
  updatedAt: string;
  lastLogin: string | null;
  /** At least one MFA method is enabled (kept by the MFA store; new users have none). */
  mfaEnabled?: boolean;
}

/**
 * A user's columns but the preferences: those are read by their owner only (`readPreferences`),
 * so listing users carries no more than it did before them.
 */
const USER_COLUMNS = [
  'id',
  'username',
  'email',
  'password_hash',
  'first_name',
  'last_name',
  'role',
  'permissions',
  'active',
  'created_at',
  'updated_at',
  'last_login',
  'mfa_enabled',
] as const;

export function toStoredUser(row: Omit<Selectable<UsersTable>, 'preferences'>): StoredUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    passwordHash: row.password_hash,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    permissions: JSON.parse(row.permissions) as string[],
    active: Boolean(row.active),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastLogin: row.last_login,
    mfaEnabled: Boolean(row.mfa_enabled),
  };
}

export async function insertUser(conn: Conn, u: StoredUser): Promise<void> {
  await conn.db
    .insertInto('users')
    .values({
      id: u.id,
      username: u.username,
      email: u.email,
      password_hash: u.passwordHash,
      first_name: u.firstName,
      last_name: u.lastName,
      role: u.role,
      permissions: JSON.stringify(u.permissions),
      active: u.active ? 1 : 0,
      created_at: u.createdAt,
      updated_at: u.updatedAt,
      last_login: u.lastLogin,
    })
    .execute();
}

export async function findUserById(conn: Conn, id: string): Promise<StoredUser | undefined> {
  const row = await conn.db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toStoredUser(row) : undefined;
}

export async function findUserByUsername(conn: Conn, username: string): Promise<StoredUser | undefined> {
  const row = await conn.db.selectFrom('users').select(USER_COLUMNS).where('username', '=', username).executeTakeFirst();
  return row ? toStoredUser(row) : undefined;
}

export async function countUsers(conn: Conn): Promise<number> {
  const { n } = await conn.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function setLastLogin(conn: Conn, id: string, at: string): Promise<void> {
  await conn.db.updateTable('users').set({ last_login: at }).where('id', '=', id).execute();
}

export async function findUserByEmail(conn: Conn, email: string): Promise<StoredUser | undefined> {
  const row = await conn.db.selectFrom('users').select(USER_COLUMNS).where('email', '=', email.toLowerCase()).executeTakeFirst();
  return row ? toStoredUser(row) : undefined;
}

export interface UserListQuery {
  limit: number;
  offset: number;
  role?: string;
  active?: boolean;
  /** Case-insensitive substring of username, email or name. */
  search?: string;
}

export async function listUsers(conn: Conn, q: UserListQuery): Promise<{ rows: StoredUser[]; total: number }> {
  let base = conn.db.selectFrom('users');
  if (q.role) base = base.where('role', '=', q.role);
  if (q.active !== undefined) base = base.where('active', '=', q.active ? 1 : 0);
  if (q.search) {
    const pattern = `%${escapeLike(q.search.toLowerCase())}%`;
    base = base.where((eb) =>
      eb.or(
        ['username', 'email', 'first_name', 'last_name'].map((c) => eb(sql`lower(${sql.ref(c)})`, 'like', sql`${pattern} escape '\\'`)),
      ),
    );
  }
  const rows = await base.select(USER_COLUMNS).orderBy('created_at', 'asc').orderBy('id', 'asc').limit(q.limit).offset(q.offset).execute();
  const { n } = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return { rows: rows.map(toStoredUser), total: Number(n) };
}

export interface UserChanges {
  username?: string;
  email?: string;
  passwordHash?: string;
  firstName?: string | null;
  lastName?: string | null;
  role?: string;
  permissions?: string[];
  active?: boolean;
  updatedAt: string;
}

export async function updateUser(conn: Conn, id: string, c: UserChanges): Promise<void> {
  await conn.db
    .updateTable('users')
    .set({
      ...(c.username !== undefined && { username: c.username }),
      ...(c.email !== undefined && { email: c.email.toLowerCase() }),
      ...(c.passwordHash !== undefined && { password_hash: c.passwordHash }),
      ...(c.firstName !== undefined && { first_name: c.firstName }),
      ...(c.lastName !== undefined && { last_name: c.lastName }),
      ...(c.role !== undefined && { role: c.role }),
      ...(c.permissions !== undefined && { permissions: JSON.stringify(c.permissions) }),
      ...(c.active !== undefined && { active: c.active ? 1 : 0 }),
      updated_at: c.updatedAt,
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteUser(conn: Conn, id: string): Promise<boolean> {
  const result = await conn.db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Active admins other than `exceptId`: the last one may not be demoted, deactivated or deleted. */
export async function countOtherActiveAdmins(conn: Conn, exceptId: string): Promise<number> {
  const { n } = await conn.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('role', '=', 'admin')
    .where('active', '=', 1)
    .where('id', '!=', exceptId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Locks the admin rows (PostgreSQL) so two demotions cannot both see "another admin is left". */
export async function lockAdmins(conn: Conn): Promise<void> {
  if (!conn.dialect.supportsForUpdate) return;
  await conn.db.selectFrom('users').select('id').where('role', '=', 'admin').forUpdate().execute();
}

/** The user's preferences as stored (JSON object text), or undefined when there is no such user. */
export async function readPreferences(conn: Conn, id: string): Promise<string | undefined> {
  const row = await conn.db.selectFrom('users').select('preferences').where('id', '=', id).executeTakeFirst();
  return row?.preferences;
}

/** Replaces the user's preferences (JSON object text); false when there is no such user. */
export async function writePreferences(conn: Conn, id: string, json: string): Promise<boolean> {
  const res = await conn.db.updateTable('users').set({ preferences: json }).where('id', '=', id).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
