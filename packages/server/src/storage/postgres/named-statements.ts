import { createHash } from 'node:crypto';

/**
 * SQL texts that run so often that PostgreSQL should parse and plan them once per connection
 * (a named prepared statement) instead of on every run. Parsing and planning the document insert
 * costs PostgreSQL about twice what running it does, so for hot queries this is most of the win.
 *
 * Only fixed-shape texts are registered (see prepared-query.ts): each one stays prepared on every
 * pooled connection for the connection's life, so the set must stay small.
 */
const names = new Map<string, string>();

export function nameStatement(sqlText: string): void {
  if (!names.has(sqlText)) names.set(sqlText, `vellum_${createHash('sha256').update(sqlText).digest('hex').slice(0, 24)}`);
}

/** The statement name for a registered text; undefined for every other query. */
export function statementName(sqlText: string): string | undefined {
  return names.get(sqlText);
}

/** At most this many read shapes are named on top of the fixed texts (see `nameReadShape`). */
export const MAX_READ_SHAPES = 256;
let readShapes = 0;

/**
 * Names the text of a fast read (a list page or total on the system indexes, docs/architecture.md
 * "Storage model"): its text depends on the list's shape (type or status filter, order, limit,
 * expansion), not on its values, so a site runs a few dozen of them over and over, and parsing and
 * planning each run cost PostgreSQL about what running it does. The first MAX_READ_SHAPES texts
 * are named, the rest run unnamed, so a client that varies shapes cannot grow every connection's
 * prepared statements without end. Reads that may be slow (arbitrary filters) are not named: a
 * generic plan could suit one value and not another.
 */
export function nameReadShape(sqlText: string): void {
  if (names.has(sqlText) || readShapes >= MAX_READ_SHAPES) return;
  readShapes++;
  nameStatement(sqlText);
}
