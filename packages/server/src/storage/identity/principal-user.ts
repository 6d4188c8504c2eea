/**
 * The user columns every bearer check reads with its session or grant row, and their mapping:
 * one list, so the session and OAuth checks see a user the same way.
 */
export const PRINCIPAL_USER_COLUMNS = [
  'users.id as user_id',
  'users.username',
  'users.first_name',
  'users.last_name',
  'users.role',
  'users.permissions',
  'users.active',
] as const;

export interface PrincipalUser {
  userId: string;
  username: string;
  firstName: string | null;
  lastName: string | null;
  role: string;
  permissions: string[];
  active: boolean;
}

export function toPrincipalUser(row: {
  user_id: string;
  username: string;
  first_name: string | null;
  last_name: string | null;
  role: string;
  permissions: string;
  active: number | boolean;
}): PrincipalUser {
  return {
    userId: row.user_id,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    permissions: JSON.parse(row.permissions) as string[],
    active: Boolean(row.active),
  };
}
