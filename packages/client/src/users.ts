import type { ListResult } from './list-result.js';
import type { Transport } from './transport.js';

/** A user as `/users` and `/auth/me` serve it (docs/api.md, "Users"). */
export interface User {
  id: string;
  username: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  /** First and last name, or the username. */
  name: string;
  role: string;
  /** The explicit permissions; the role's defaults come on top. */
  permissions: string[];
  active: boolean;
  mfaEnabled: boolean;
  createdAt: string;
  updatedAt: string;
  lastLogin: string | null;
}

/**
 * The signed-in user's own preferences (docs/api.md, "Preferences"): any JSON object, up to
 * 64 KiB as JSON. The studio keeps its saved list views under `studio.lists`.
 */
export type Preferences = Record<string, unknown>;

/** `GET /auth/me`: the user, and for the user's own session (not an OAuth application) their preferences. */
export interface Me extends User {
  preferences?: Preferences;
}

export interface UserListQuery {
  limit?: number;
  offset?: number;
  role?: string;
  active?: boolean;
  /** Case-insensitive substring of the username, email, first or last name. */
  search?: string;
}

export interface NewUser {
  username: string;
  email: string;
  /** Needed for an active user. */
  password?: string;
  firstName?: string;
  lastName?: string;
  /** Default `viewer`. */
  role?: string;
  permissions?: string[];
  active?: boolean;
}

export type UserInvitation = Omit<NewUser, 'password' | 'active'>;

/** The answer to `POST /users/invite`. */
export interface InvitedUser extends User {
  /**
   * The invitation link, only when the server has no mail (`mail.smtpUrl`) to send it: pass it on
   * to the invitee yourself. With mail it goes to the invitee's mailbox only and is absent here.
   */
  inviteUrl?: string;
}

/** The answer to `POST /users/:id/password-reset` (docs/api.md, "Password reset and invitations"). */
export interface PasswordResetLink {
  /**
   * `reset`: a password-reset link (one hour, single use). `invite`: the user has not accepted their
   * invitation yet (inactive, no password), so the link is a fresh invitation (seven days), which
   * also activates the account.
   */
  purpose: 'reset' | 'invite';
  /** True when the link was mailed to the user's address; it is then not in this answer. */
  sent: boolean;
  /**
   * The link, only when the server has no mail (`mail.smtpUrl`) to send it (`sent` false): pass it
   * on to the user yourself.
   */
  resetUrl?: string;
}

export interface UserUpdate {
  username?: string;
  email?: string;
  password?: string;
  firstName?: string | null;
  lastName?: string | null;
  role?: string;
  permissions?: string[];
  active?: boolean;
}

const userPath = (id: string) => `/users/${encodeURIComponent(id)}`;

/** `/users` (docs/api.md, "Users" and "Password reset and invitations"). */
export class UsersApi {
  constructor(private readonly t: Transport) {}

  list(query: UserListQuery = {}): Promise<ListResult<User>> {
    return this.t.json({ method: 'GET', path: '/users', query: { ...query } });
  }

  async get(id: string): Promise<User> {
    return (await this.t.json<{ data: User }>({ method: 'GET', path: userPath(id) })).data;
  }

  async byUsername(username: string): Promise<User> {
    return (await this.t.json<{ data: User }>({ method: 'GET', path: `/users/by-username/${encodeURIComponent(username)}` })).data;
  }

  async byEmail(email: string): Promise<User> {
    return (await this.t.json<{ data: User }>({ method: 'GET', path: `/users/by-email/${encodeURIComponent(email)}` })).data;
  }

  async create(user: NewUser): Promise<User> {
    return (await this.t.json<{ data: User }>({ method: 'POST', path: '/users', json: user })).data;
  }

  /**
   * An inactive user; the mailed link lets them choose a password, which activates them. Without
   * mail on the server the answer holds the link (`inviteUrl`) to pass on instead.
   */
  async invite(invitation: UserInvitation): Promise<InvitedUser> {
    return (await this.t.json<{ data: InvitedUser }>({ method: 'POST', path: '/users/invite', json: invitation })).data;
  }

  /** `PUT /users/:id`: only the fields given change. */
  async update(id: string, update: UserUpdate): Promise<User> {
    return (await this.t.json<{ data: User }>({ method: 'PUT', path: userPath(id), json: update })).data;
  }

  async delete(id: string): Promise<void> {
    await this.t.json({ method: 'DELETE', path: userPath(id) });
  }

  /**
   * `POST /users/:id/password-reset` (`users:write`): mails the user a link to choose a new password
   * (`sent: true`); without mail on the server the answer holds the link (`resetUrl`) to pass on
   * instead. A user who has not accepted their invitation gets a fresh invitation link
   * (`purpose: 'invite'`); a deactivated user is 409.
   */
  async sendPasswordReset(id: string): Promise<PasswordResetLink> {
    return (await this.t.json<{ data: PasswordResetLink }>({ method: 'POST', path: `${userPath(id)}/password-reset` })).data;
  }

  /** Removes every second factor of the user (admins only). */
  async resetMfa(id: string): Promise<void> {
    await this.t.json({ method: 'POST', path: `/admin/users/${encodeURIComponent(id)}/mfa/reset` });
  }
}
