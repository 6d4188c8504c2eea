import type { ListParams } from '../../../domain/documents/parse-list-query.js';
import { badParam as bad } from '../../../domain/documents/filter-value.js';

const FILTER_KEY = /^filter\[([^[\]]+)\](?:\[([^[\]]+)\])?$/;
const NAMED = [
  'limit',
  'offset',
  'orderBy',
  'order',
  'natural',
  'expand',
  'search',
  'fields',
  'after',
  'perspective',
  'locale',
  'untranslated',
] as const;
const KNOWN = new Set<string>(NAMED);

/**
 * The query string of a list request as the domain's list parameters: `filter[field]=v` and
 * `filter[field][op]=v` (op `eq` when absent) and the named parameters, each given once
 * (docs/api.md, "List queries"). Only the syntax is checked here; what fields and operators
 * mean, and the typing of values, is the schema's (`parseListQuery`).
 */
export function listParamsOf(query: Record<string, unknown>): ListParams {
  const params: ListParams = { filters: [] };
  for (const [key, raw] of Object.entries(query)) {
    if (KNOWN.has(key)) {
      if (typeof raw !== 'string') throw bad(key, 'must be given once');
      params[key as (typeof NAMED)[number]] = raw;
      continue;
    }
    const m = FILTER_KEY.exec(key);
    if (!m)
      throw bad(key, key.startsWith('filter') ? 'malformed filter; use filter[field] or filter[field][op]' : 'unknown query parameter');
    if (typeof raw !== 'string') throw bad(key, 'must be given once');
    params.filters.push({ field: m[1], op: m[2] ?? 'eq', value: raw, param: key });
  }
  return params;
}
