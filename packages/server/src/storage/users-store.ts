import type { Conn } from './connection.js';
import type { UsersTable } from './tables.js';

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
}

export function toStoredUser(row: UsersTable): StoredUser {
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
  const row = await conn.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toStoredUser(row) : undefined;
}

export async function findUserByUsername(conn: Conn, username: string): Promise<StoredUser | undefined> {
  const row = await conn.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  return row ? toStoredUser(row) : undefined;
}

export async function countUsers(conn: Conn): Promise<number> {
  const { n } = await conn.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(n);
}

export async function setLastLogin(conn: Conn, id: string, at: string): Promise<void> {
  await conn.db.updateTable('users').set({ last_login: at }).where('id', '=', id).execute();
}

export async function findUserByEmail(conn: Conn, email: string): Promise<StoredUser | undefined> {
  const row = await conn.db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
  return row ? toStoredUser(row) : undefined;
}
