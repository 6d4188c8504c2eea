/** Every key of a user as `/users` and `/auth/me` serve it (docs/api.md, "Users"): never a hash or secret. */
export const SERVED_USER_KEYS = [
  'active',
  'createdAt',
  'email',
  'firstName',
  'id',
  'lastLogin',
  'lastName',
  'mfaEnabled',
  'name',
  'permissions',
  'role',
  'updatedAt',
  'username',
].sort();
