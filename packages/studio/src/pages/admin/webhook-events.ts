/**
 * The webhook event patterns (docs/api.md, "Webhooks"): an event name (`document.published`),
 * every event of a resource (`document.*`) or everything (`*`). The names come from the server
 * (`GET /config/studio`, `webhookEvents`); these helpers only group and word them.
 */
export const EVERYTHING = '*';

export interface EventGroup {
  /** The part before the dot: `document`. */
  resource: string;
  /** `document.*` */
  all: string;
  events: string[];
}

const TITLES: Record<string, string> = { document: 'Documents', media: 'Media', user: 'Users' };

/** A group's heading; a resource the studio has no word for is shown as the server names it. */
export const resourceTitle = (resource: string) => TITLES[resource] ?? resource;

/** The server's events grouped by resource, in its order. */
export function eventGroups(events: readonly string[]): EventGroup[] {
  const groups = new Map<string, string[]>();
  for (const e of events) {
    const resource = e.slice(0, e.indexOf('.'));
    groups.set(resource, [...(groups.get(resource) ?? []), e]);
  }
  return [...groups].map(([resource, list]) => ({ resource, all: `${resource}.*`, events: list }));
}

/** One line for a list: "Everything", "All document events", or the names. */
export function eventsSummary(patterns: readonly string[]): string {
  if (patterns.includes(EVERYTHING)) return 'Everything';
  return patterns.map((p) => (p.endsWith('.*') ? `All ${p.slice(0, -2)} events` : p)).join(', ');
}

/**
 * Whether a hook takes an event, by the server's rule (docs/webhooks.md, "Events"): a pattern
 * names it (`*`, `document.*` or the name), and a document event is of one of its types (none
 * listed: every type).
 */
export function hookTakes(hook: { events: readonly string[]; types: readonly string[] }, event: string, docType?: string): boolean {
  const named = hook.events.some((p) => p === EVERYTHING || p === event || (p.endsWith('.*') && event.startsWith(p.slice(0, -1))));
  return named && (docType === undefined || hook.types.length === 0 || hook.types.includes(docType));
}
