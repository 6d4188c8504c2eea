/**
 * The events a webhook can subscribe to (docs/api.md, "Webhooks"), and the patterns that name
 * several: `<resource>.*` for every event of a resource, `*` for all.
 */
export const WEBHOOK_EVENTS = [
  'document.created',
  'document.updated',
  'document.deleted',
  'document.published',
  'document.unpublished',
  'document.draft.updated',
  'document.draft.deleted',
  'media.created',
  'media.updated',
  'media.deleted',
  'user.created',
  'user.updated',
  'user.deleted',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const RESOURCES = new Set(WEBHOOK_EVENTS.map((e) => e.slice(0, e.indexOf('.'))));
const EVENTS: ReadonlySet<string> = new Set(WEBHOOK_EVENTS);

/** An event name from the list, `*`, or `<resource>.*` for a resource that has events. */
export function isEventPattern(pattern: string): boolean {
  if (pattern === '*' || EVENTS.has(pattern)) return true;
  return pattern.endsWith('.*') && RESOURCES.has(pattern.slice(0, -2));
}

/** Whether one subscription pattern covers an event; exact names only otherwise (no partial globs). */
export function eventMatches(pattern: string, event: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return event.startsWith(pattern.slice(0, -1));
  return pattern === event;
}

/** Whether any of a webhook's patterns covers the event. */
export function subscribesTo(patterns: readonly string[], event: string): boolean {
  return patterns.some((p) => eventMatches(p, event));
}
