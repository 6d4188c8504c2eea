import { createHash } from 'node:crypto';
import { errors } from '../../errors.js';
import type { Principal } from '../access/principal.js';
import { requireMayBePresent, requireMayWatchPresence } from '../access/policy.js';
import type { Services } from '../services.js';
import type { PresentUser } from './presence-message.js';

/** How long an entry lasts without a heartbeat (the studio sends one every 10 s). */
export const PRESENCE_TTL_MS = 30_000;

export interface PresenceInput {
  type: string;
  id: string;
}

/**
 * The session an entry belongs to, as an opaque key: the sign-in session's id hashed (or the OAuth
 * grant's), so one person's tabs are told apart and no session id is shown to others.
 */
function sessionKey(actor: Principal): string {
  const raw = actor.sessionId ? `session:${actor.sessionId}` : `grant:${actor.oauth?.grantId ?? ''}`;
  return createHash('sha256').update(raw).digest('base64url').slice(0, 22);
}

/** The document type, 404 when there is none (a signed-in caller's question: the types are no secret to it). */
function checkType(svc: Services, type: string): void {
  if (!svc.schemas.get(type)) throw errors.notFound('Document type not found');
}

/** Whether the caller may say it is at documents of `type`: asked before the body is read (docs/api.md, "Errors"). */
export function requirePresence(svc: Services, actor: Principal, type: string): void {
  checkType(svc, type);
  requireMayBePresent(actor, type);
}

/**
 * `PUT /presence/:type/:id`: the caller is at the document (a heartbeat; docs/realtime.md,
 * "Presence"). Sent on the change bus to every node; no database, no audit, no webhook, no cache.
 */
export function announcePresence(
  svc: Services,
  actor: Principal,
  input: PresenceInput & { field?: string | null; editing?: boolean },
): void {
  requirePresence(svc, actor, input.type);
  const session = sessionKey(actor);
  svc.events.sendPresence({
    op: 'here',
    type: input.type,
    id: input.id,
    session,
    userId: actor.id ?? '',
    name: actor.name || actor.username || '',
    field: input.field ?? null,
    editing: input.editing ?? false,
    since: svc.presence.since(input.type, input.id, session) ?? svc.now().toISOString(),
  });
}

/** `DELETE /presence/:type/:id`: the caller left the document. */
export function leavePresence(svc: Services, actor: Principal, input: PresenceInput): void {
  requirePresence(svc, actor, input.type);
  svc.events.sendPresence({ op: 'left', type: input.type, id: input.id, session: sessionKey(actor) });
}

/** `GET /presence/:type/:id`: who is at the document now, on any node. */
export function listPresence(svc: Services, actor: Principal, input: PresenceInput): PresentUser[] {
  checkType(svc, input.type);
  requireMayWatchPresence(actor, input.type);
  return svc.presence.list(input.type, input.id);
}
