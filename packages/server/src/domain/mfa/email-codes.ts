import { randomInt, timingSafeEqual } from 'node:crypto';
import { errors } from '../../errors.js';
import { mfaCodeMail } from '../../mail/templates.js';
import { findEmailCode, replaceEmailCode, spendEmailCode, type EmailCodePurpose } from '../../storage/identity/mfa-email-codes-store.js';
import { listMfaMethods } from '../../storage/identity/mfa-store.js';
import { findUserById, type StoredUser } from '../../storage/identity/users-store.js';
import { displayName } from '../identity/user-view.js';
import type { Services } from '../services.js';
import { readSettings } from '../settings/instance-settings.js';
import { liveMfaToken } from './mfa-tokens.js';

/**
 * Email one-time codes (docs/api.md, "Multi-factor authentication"): 6 digits, 10 minutes, single
 * use, one live code per user and purpose (a new one replaces the last), stored as an HMAC (under a key
 * derived like the secret box's) of the user id, purpose and code, and shown nowhere but in the mail.
 */
const TTL_MS = 10 * 60_000;

function emailCodeHash(svc: Services, userId: string, purpose: EmailCodePurpose, code: string): string {
  return svc.secretBox.mac(`${userId}:${purpose}:${code}`);
}

/** Without SMTP there is no way to deliver a code: the method is not offered (501). */
export function requireMail(svc: Services): void {
  if (!svc.mailer.configured) throw errors.notImplemented('Email codes need mail (mail.smtpUrl) on this instance');
}

/**
 * Stores a fresh code and mails it after the answer: the response never waits on SMTP, and a
 * failed delivery is logged without the code (the user asks for another one).
 */
export async function mailEmailCode(svc: Services, user: StoredUser, purpose: EmailCodePurpose): Promise<void> {
  const code = String(randomInt(1_000_000)).padStart(6, '0');
  const now = svc.now();
  await replaceEmailCode(svc.database, {
    userId: user.id,
    purpose,
    codeHash: emailCodeHash(svc, user.id, purpose, code),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + TTL_MS).toISOString(),
    usedAt: null,
  });
  const { siteName } = await readSettings(svc);
  const message = mfaCodeMail(user.email, displayName(user), code, siteName, purpose);
  setImmediate(() => {
    svc.mailer.send(message).catch((err: Error) => svc.log.error({ err: err.message, to: user.email }, 'MFA code mail failed'));
  });
}

/** Spends the user's live code of that purpose when `code` is it (compared in constant time). */
export async function acceptEmailCode(svc: Services, userId: string, purpose: EmailCodePurpose, code: string): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  const stored = await findEmailCode(svc.database, userId, purpose);
  const now = svc.now().toISOString();
  if (!stored || stored.usedAt !== null || stored.expiresAt <= now) return false;
  const given = Buffer.from(emailCodeHash(svc, userId, purpose, code), 'hex');
  if (!timingSafeEqual(given, Buffer.from(stored.codeHash, 'hex'))) return false;
  return spendEmailCode(svc.database, stored, now);
}

/**
 * `POST /auth/mfa/email/send {mfaToken}`: (1) the token must be live; (2) the user must have email
 * codes enabled; (3) the account's sends must not be spent; (4) a fresh code
 * is mailed and the previous one stops working.
 */
export async function sendLoginEmailCode(svc: Services, mfaToken: string): Promise<void> {
  requireMail(svc);
  const stored = await liveMfaToken(svc, mfaToken, 'mfa');
  const user = await findUserById(svc.database, stored.userId);
  if (!user || !user.active) throw errors.mfaTokenExpired();
  const methods = await listMfaMethods(svc.database, user.id);
  if (!methods.some((m) => m.method === 'email' && m.enabledAt !== null))
    throw errors.invalidInput('The method email is not set up for this account');
  await countSend(svc, user.id);
  await mailEmailCode(svc, user, 'login');
}

/** Mail is not free: every code sent counts per account, with the rule of `security.rateLimit.login`. */
export async function countSend(svc: Services, userId: string): Promise<void> {
  const keys = [`email-send:${userId}`];
  await svc.mfaLimiter.check(keys, svc.now().getTime());
  await svc.mfaLimiter.hit(keys, svc.now().getTime());
}

/**
 * The code mailed with a `requiresMFA` answer when email is the only method. It counts like any
 * send; once the account's sends are spent the login answers the same and mails nothing (the
 * last code still works, and `email/send` says when to ask again).
 */
export async function mailCodeAtSignIn(svc: Services, user: StoredUser): Promise<void> {
  const keys = [`email-send:${user.id}`];
  if (!(await svc.mfaLimiter.allows(keys, svc.now().getTime()))) return;
  await svc.mfaLimiter.hit(keys, svc.now().getTime());
  await mailEmailCode(svc, user, 'login');
}
