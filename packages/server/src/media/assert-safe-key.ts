import { MediaError } from './media-error.js';

/**
 * A storage key: one flat file name the service generated — letters, digits, `.`, `_`, `-`,
 * starting with a letter or digit, no `..`. Path separators, NUL, `..` and absolute paths can
 * therefore never reach the filesystem or a bucket.
 */
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export function isSafeKey(key: string): boolean {
  return SAFE_KEY.test(key) && !key.includes('..');
}

export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new MediaError('unsafe-key', `unsafe storage key: ${JSON.stringify(key)}`);
}
