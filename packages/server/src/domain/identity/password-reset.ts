import { errors } from '../../errors.js';
import { invitationMail, passwordResetMail } from '../../mail/templates.js';
import { inTransaction } from '../../storage/connection.js';
import { deleteTrustedDevices } from '../../storage/identity/trusted-devices-store.js';
import {
  findPasswordToken,
  insertPasswordToken,
  spendPasswordToken,
  spendUserPasswordTokens,
  type StoredPasswordToken,
} from '../../storage/identity/password-tokens-store.js';
import { revokeUserSessions } from '../../storage/identity/sessions-store.js';
import { findUserByEmail, findUserById, updateUser, type StoredUser } from '../../storage/identity/users-store.js';
import type { Services } from '../services.js';
import { recordAudit } from '../audit/record-audit.js';
import { requireCaptcha } from '../security/captcha.js';
import { checkPasswordPolicy, hashPassword } from './passwords.js';
import { randomBase62, sha256Hex } from './secrets.js';
import { displayName } from './user-view.js';
import { readSettings, type InstanceSettings } from '../settings/instance-settings.js';

const RESET_TTL_MS = 3_600_000;
const INVITE_TTL_MS = 7 * 86_400_000;
const INVALID = 'The link is invalid, used or expired';

/**
 * `POST /auth/request-reset {email}`: mails a one-hour, single-use link to an active user. The
 * answer is the same whether or not the address exists, and it is given after the same work in
 * both cases (limits, captcha, one lookup): issuing the token and sending the mail happen after
 * the answer, so its timing tells nothing either.
 */
export async function requestPasswordReset(svc: Services, email: string, ip?: string, captchaToken?: string): Promise<void> {
  // Every request counts (per client IP and per address): mail is not a free resource.
  const keys = [`ip:${ip ?? 'unknown'}`, `email:${email.trim().toLowerCase()}`];
  await svc.resetLimiter.check(keys, svc.now().getTime());
  await requireCaptcha(svc, captchaToken, ip);
  await svc.resetLimiter.hit(keys, svc.now().getTime());
  const user = await findUserByEmail(svc.database, email.trim());
  if (!user || !user.active) return;
  setImmediate(() => {
    mailResetLink(svc, user).catch((err: Error) => svc.log.error({ err }, 'password reset mail failed'));
  });
}

/**
 * `GET /auth/reset-status` (public): whether this instance can mail a requested link at all, so the
 * page that asks for one does not claim a mail is on its way when none can be sent (without mail an
 * administrator hands out the link: `POST /users/:id/password-reset`). It says nothing about any
 * account, and `request-reset` answers as always.
 */
export function passwordResetStatus(svc: Services): { mail: boolean } {
  return { mail: svc.mailer.configured };
}

async function mailResetLink(svc: Services, user: StoredUser): Promise<void> {
  const token = await issuePasswordToken(svc, user, 'reset');
  const settings = await readSettings(svc);
  await svc.mailer.send(
    passwordResetMail(user.email, displayName(user), linkFor(svc, settings, 'reset-password', token), settings.siteName),
  );
}

/** What each kind of password link is: the studio page it opens and the mail that carries it. */
const LINKS = {
  invite: { page: 'accept-invite', mail: invitationMail },
  reset: { page: 'reset-password', mail: passwordResetMail },
} as const;

/**
 * A password link someone else starts for `user`, mailed to them: an invitation (`invite`: seven
 * days, sets the first password and activates the account) or an administrator's reset (`reset`,
 * `POST /users/:id/password-reset`: the self-service link, one hour, single use). Without mail
 * (no `mail.smtpUrl`) no mail could reach them, so the link is returned instead, for the inviter
 * or administrator to pass on (docs/api.md, "Password reset and invitations"); with mail it goes
 * only to the user's mailbox, and nothing is returned.
 */
export async function sendPasswordLink(svc: Services, user: StoredUser, purpose: 'invite' | 'reset'): Promise<string | undefined> {
  const token = await issuePasswordToken(svc, user, purpose);
  const settings = await readSettings(svc);
  const link = linkFor(svc, settings, LINKS[purpose].page, token);
  if (!svc.mailer.configured) return link;
  sendLater(svc, LINKS[purpose].mail(user.email, displayName(user), link, settings.siteName));
  return undefined;
}

/** `POST /auth/verify-reset-token {token}` → whether the link would work now. */
export async function verifyPasswordToken(svc: Services, token: string): Promise<boolean> {
  return (await usableToken(svc, token)) !== undefined;
}

/**
 * `POST /auth/reset-password {token, password}`: sets the password (activating an invited
 * account), spends this and every other open link of the user, and ends all its sessions.
 */
export async function resetPassword(svc: Services, token: string, password: string): Promise<void> {
  const problems = checkPasswordPolicy(password, svc.config.security.passwordPolicy);
  if (problems.length > 0) throw errors.validation(problems);
  const found = await usableToken(svc, token);
  if (!found) throw errors.invalidInput(INVALID);
  const hash = await hashPassword(password, svc.config.security.bcryptRounds);
  await inTransaction(svc.database, async (conn) => {
    const at = svc.now().toISOString();
    if (!(await spendPasswordToken(conn, found.hash, at))) throw errors.invalidInput(INVALID);
    await updateUser(conn, found.userId, { passwordHash: hash, updatedAt: at, ...(found.purpose === 'invite' && { active: true }) });
    await spendUserPasswordTokens(conn, found.userId, at);
    await revokeUserSessions(conn, found.userId, at);
    // A new password ends the trust given to devices under the old one (docs/api.md).
    await deleteTrustedDevices(conn, found.userId);
  });
  await recordAudit(svc, 'passwordReset', { actor: null, target: found.userId, details: { purpose: found.purpose } });
}

async function issuePasswordToken(svc: Services, user: StoredUser, purpose: 'reset' | 'invite'): Promise<string> {
  const token = randomBase62(43);
  const now = svc.now();
  await insertPasswordToken(svc.database, {
    hash: sha256Hex(token),
    userId: user.id,
    purpose,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + (purpose === 'reset' ? RESET_TTL_MS : INVITE_TTL_MS)).toISOString(),
    usedAt: null,
  });
  return token;
}

async function usableToken(svc: Services, token: string): Promise<StoredPasswordToken | undefined> {
  if (!/^[0-9A-Za-z]{43}$/.test(token)) return undefined;
  const found = await findPasswordToken(svc.database, sha256Hex(token));
  if (!found || found.usedAt !== null || found.expiresAt <= svc.now().toISOString()) return undefined;
  const user = await findUserById(svc.database, found.userId);
  // A reset link stops working when the account is deactivated; an invitation is for an inactive one.
  if (!user || (found.purpose === 'reset' && !user.active)) return undefined;
  return found;
}

function linkFor(svc: Services, settings: InstanceSettings, page: string, token: string): string {
  const base = settings.publicUrl ?? svc.config.server.publicUrl ?? `http://localhost:${svc.config.server.port}`;
  return `${base.replace(/\/$/, '')}/studio/${page}?token=${token}`;
}

function sendLater(svc: Services, message: Parameters<Services['mailer']['send']>[0]): void {
  svc.mailer.send(message).catch((err: Error) => svc.log.error({ err, to: message.to }, 'mail failed'));
}
