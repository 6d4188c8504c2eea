import { randomInt } from 'node:crypto';
import type { Conn } from '../../storage/connection.js';
import { replaceBackupCodes } from '../../storage/identity/mfa-store.js';
import { sha256Hex } from '../identity/secrets.js';

/** Backup codes (docs/api.md, "Multi-factor authentication"): 10 of 8 characters, none of 0 O 1 I L. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const COUNT = 10;
const LENGTH = 8;

export function newBackupCodes(): string[] {
  return Array.from({ length: COUNT }, () => Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''));
}

/** Case, spaces and dashes do not matter when a code is typed back. */
export function backupCodeHash(userId: string, code: string): string {
  return sha256Hex(`${userId}:${code.replace(/[\s-]/g, '').toUpperCase()}`);
}

/** Issues a fresh set for the user (the old set stops working) and returns the codes, shown once. */
export async function issueBackupCodes(conn: Conn, userId: string, at: string): Promise<string[]> {
  const codes = newBackupCodes();
  await replaceBackupCodes(
    conn,
    userId,
    codes.map((c) => backupCodeHash(userId, c)),
    at,
  );
  return codes;
}
