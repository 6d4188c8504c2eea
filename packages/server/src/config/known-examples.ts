/**
 * Secrets and passwords that are published: the samples in README.md and docs/ (and ones they
 * carried before), plus the usual placeholders. A JWT secret among them is refused at start-up;
 * an admin password among them is warned about. test/unit/config.test.ts checks that every value
 * written in README.md and docs/ is listed here.
 */
const KNOWN_EXAMPLES = new Set([
  // README.md's sample configuration, then and now.
  'at least 32 bytes; generated and stored in the database when unset',
  'change-me-please',
  // The usual placeholders.
  'change-me',
  'changeme',
  'change-this',
  'changethis',
  'secret',
  'supersecret',
  'your-secret',
  'your-secret-key',
  'your-256-bit-secret',
  'password',
  'password1',
  'password123',
  'admin',
  'admin123',
  'letmein',
]);

/** True when `value` (trimmed, in any case) is a published example. */
export function isKnownExample(value: string): boolean {
  return KNOWN_EXAMPLES.has(value.trim().toLowerCase());
}
