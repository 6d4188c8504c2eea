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
