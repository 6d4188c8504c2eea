import { errors } from '../../errors.js';
import { readScope, requireMayReadDrafts, requireMayWatchPresence } from '../access/policy.js';
import type { Perspective } from '../documents/perspective.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';
import { isEventPattern, subscribesTo } from '../webhooks/webhook-events.js';
import type { ChangeEvent } from './change-event.js';

/** What one stream asked for: document types (none: all) and event patterns (none: all). */
export interface StreamFilter {
  types?: ReadonlySet<string>;
  events?: readonly string[];
  perspective?: Perspective;
  /** The documents whose `presence.updated` events the stream asked for (none: no presence at all). */
  presence?: readonly { type: string; id: string }[];
}

/** The event name of presence (docs/realtime.md, "Presence"): no change, so no webhook pattern matches it. */
export const PRESENCE_EVENT = 'presence.updated';
/** At most this many documents' presence per stream (a page shows one, a list a few). */
const MAX_PRESENCE_TARGETS = 50;

/**
 * `?types=post,page` and `?events=document.*,media.created` (the webhook patterns). Every type
 * must exist and be readable: a type closed to an anonymous caller reads as unknown (as `/documents`
 * hides it), a signed-in caller without read on it gets 403.
 */
export function parseStreamFilter(
  svc: Services,
  actor: Principal,
  input: { types?: string; events?: string; perspective?: Perspective; presence?: string },
): StreamFilter {
  const filter: StreamFilter = input.perspective ? { perspective: input.perspective } : {};
  // Pending drafts are never public: anonymous 401, and read permission on each type named.
  if (input.perspective === 'drafts') requireMayReadDrafts(actor);
  if (input.types !== undefined) {
    const types = splitList(input.types, 'types');
    for (const type of types) {
      const schema = svc.schemas.get(type);
      const scope = schema ? readScope(actor, schema, 'documents', svc.config.documents.publicRead) : 'none';
      if (!schema || (scope === 'none' && actor.kind === 'anonymous')) throw errors.invalidInput(`Unknown document type ${type}`);
      if (scope === 'none' || (input.perspective === 'drafts' && scope !== 'all'))
        throw errors.forbidden(`Missing read permission on ${type}`);
    }
    filter.types = new Set(types);
  }
  if (input.presence !== undefined) filter.presence = parsePresence(svc, actor, input.presence);
  if (input.events !== undefined) {
    // `presence.updated` names no change: listed alone, the stream has presence and no change events.
    const events = splitList(input.events, 'events').filter((e) => e !== PRESENCE_EVENT);
    const bad = events.find((e) => !isEventPattern(e));
    if (bad !== undefined) throw errors.invalidInput(`Unknown event or pattern ${bad} (expected e.g. document.created, document.* or *)`);
    filter.events = events;
  }
  return filter;
}

/** Whether the stream asked for this event; who may see it is the policy's question. */
export function filterMatches(filter: StreamFilter, event: ChangeEvent): boolean {
  if (filter.events && !subscribesTo(filter.events, event.type)) return false;
  if (filter.perspective === 'published' && !aboutPublished(event)) return false;
  if (filter.types && event.subject.kind === 'document' && !filter.types.has(event.subject.docType)) return false;
  return true;
}

/**
 * Under `perspective=published`: a change to a published main version, or one that takes a
 * document out of the published set (unpublished, or deleted while published); never a draft's.
 */
function aboutPublished(event: ChangeEvent): boolean {
  const s = event.subject;
  if (s.kind !== 'document') return true;
  if (event.type.startsWith('document.draft.')) return false;
  return s.status === 'published' || event.type === 'document.unpublished';
}

/**
 * `?presence=post:0193…,page:0193…`: the documents whose presence the stream follows. Presence is
 * about signed-in work: anonymous 401, read permission on every status of each type (403), an
 * unknown type 400 as in `types`.
 */
function parsePresence(svc: Services, actor: Principal, raw: string): { type: string; id: string }[] {
  const targets = splitList(raw, 'presence').map((item) => {
    const at = item.indexOf(':');
    if (at <= 0 || at === item.length - 1) throw errors.invalidInput(`presence: expected type:id, got ${item}`);
    return { type: item.slice(0, at), id: item.slice(at + 1) };
  });
  if (targets.length > MAX_PRESENCE_TARGETS) throw errors.invalidInput(`presence: at most ${MAX_PRESENCE_TARGETS} documents`);
  for (const { type } of targets) {
    if (actor.kind === 'anonymous') throw errors.unauthorized('Authentication required for presence');
    if (!svc.schemas.get(type)) throw errors.invalidInput(`Unknown document type ${type}`);
    requireMayWatchPresence(actor, type);
  }
  return targets;
}

function splitList(raw: string, name: string): string[] {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length === 0) throw errors.invalidInput(`${name}: expected a comma-separated list`);
  return [...new Set(items)];
}
