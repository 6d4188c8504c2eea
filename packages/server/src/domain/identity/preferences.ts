import { errors } from '../../errors.js';
import { readPreferences, writePreferences } from '../../storage/identity/users-store.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';
import { profileOwnerId } from './update-profile.js';

/** The largest preferences object a user may keep, as JSON text (docs/api.md, "Preferences"). */
export const PREFERENCES_LIMIT = 64 * 1024;

export type Preferences = Record<string, unknown>;

/**
 * The signed-in user's own preferences (what `GET /auth/me` adds for a user's session): the
 * studio's saved list views and columns. Nobody else reads them, administrators included, so no
 * other route carries them; an OAuth application or an API token gets none.
 */
export async function ownPreferences(svc: Services, actor: Principal): Promise<Preferences | undefined> {
  if (actor.kind !== 'user' || !actor.id) return undefined;
  const text = await readPreferences(svc.database, actor.id);
  return text === undefined ? undefined : (JSON.parse(text) as Preferences);
}

/**
 * `PUT /auth/me/preferences`: replaces the user's preferences with the object given (the body
 * schema refuses anything but an object, 422). Over `PREFERENCES_LIMIT` as JSON text is 413.
 * Only a user's own session may, as for `PATCH /auth/me`.
 */
export async function replacePreferences(svc: Services, actor: Principal, value: Preferences | null | undefined): Promise<Preferences> {
  const id = profileOwnerId(actor);
  // A `null` body passes as no body (docs/api.md, "Errors"): it is not an object either.
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw errors.validation([{ field: 'body', message: 'must be an object' }]);
  const text = JSON.stringify(value);
  if (Buffer.byteLength(text) > PREFERENCES_LIMIT)
    throw errors.payloadTooLarge(`Preferences are limited to ${PREFERENCES_LIMIT} bytes of JSON`);
  if (!(await writePreferences(svc.database, id, text))) throw errors.unauthorized('Session not found');
  return value;
}
