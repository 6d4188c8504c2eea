import type { TokenValidation } from '@vellum/client/node';
import type { HeaderLine } from './transfer-format.js';

/** The credential cannot do what the file needs: nothing was written. */
export class MissingPermissionsError extends Error {}

/** The content actions an import takes on each type it writes documents of. */
const DOCUMENT_ACTIONS = ['read', 'write', 'publish'] as const;

/**
 * What an import of this file needs (docs/cli.md, "Export and import"): on each type it holds
 * documents of, `read` (it compares with what is there), `write`, and `publish` (every version is
 * written with its status, and pending schedules publish); when it holds media, `media:read` and
 * `media:upload`. A header without `contents` (an older CLI's file) needs them for every type it
 * names, and the media ones.
 */
export function missingPermissions(header: HeaderLine, who: Pick<TokenValidation, 'role' | 'permissions'>): string[] {
  if (who.role === 'admin') return [];
  const held = new Set(who.permissions);
  const types = header.contents ? header.types.filter((t) => (header.contents!.documents[t] ?? 0) > 0) : header.types;
  const missing: string[] = [];
  for (const action of DOCUMENT_ACTIONS) {
    const lacking = types.filter((type) => !mayOnType(held, type, action));
    // Lacking on every type: the general permission is what to ask for.
    if (lacking.length > 0 && lacking.length === types.length) missing.push(`content:${action}`);
    else missing.push(...lacking.map((type) => `${type}:${action}`));
  }
  if ((header.contents?.media ?? 1) > 0) missing.push(...['media:read', 'media:upload'].filter((p) => !held.has(p)));
  return missing;
}

/** The policy's rule for a content action (docs/api.md, "Permissions"): the general right, or the type's. */
function mayOnType(held: ReadonlySet<string>, type: string, action: string): boolean {
  return held.has(`content:${action}`) || held.has('content:*') || held.has(`${type}:${action}`) || held.has(`${type}:*`);
}

/** The one line the command prints when something is missing. */
export function missingPermissionsText(missing: readonly string[]): string {
  return (
    `cannot import: the credential lacks ${missing.join(', ')} ` +
    '(sign in with vellum login as a user who holds them, or pass a --token that has them); nothing was written'
  );
}
