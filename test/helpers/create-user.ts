import { expect } from 'vitest';
import type { TestApp } from './app.js';

export interface NewUser {
  username: string;
  password: string;
  /** `<username>@example.com` unless given. */
  email?: string;
  /** Left out: the server's default role. */
  role?: string;
  /** Left out: none sent. */
  permissions?: string[];
  firstName?: string;
}

/** Creates a user through the users API (docs/api.md, "Users") as `admin`: 201 expected; returns the new user's id. */
export async function createUser(t: TestApp, admin: string, user: NewUser): Promise<string> {
  const payload = { ...user, email: user.email ?? `${user.username}@example.com` };
  const res = await t.request({ method: 'POST', url: '/api/users', token: admin, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as string;
}
