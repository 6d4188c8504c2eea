import type { FieldType } from '../../config/types.js';
import type { Condition, FilterOp, Operand } from '../../storage/document-filter-sql.js';
import { orderMayBeNull, type PageAnchor } from '../../storage/list-documents-query.js';
import { parsePaging } from '../shared/paging.js';
import { resolveFieldPath } from '../schemas/field-paths.js';
import type { CompiledSchema } from '../schemas/schema-registry.js';
import { systemField } from './system-fields.js';
import { searchWords } from './search-text.js';
import { badParam as bad, filterValue, type FilterTarget } from './filter-value.js';
import { decodeCursor } from './list-cursor.js';

export interface ParsedListQuery {
  conditions: Condition[];
  order: { operand: Operand; direction: 'asc' | 'desc' };
  /** The field ordered by, as asked (`_createdAt` when absent): cursors name it. */
  orderBy: string;
  /** `after=<cursor>`: the page starts right after `anchor` (undefined: at the start). */
  after?: { anchor: PageAnchor | undefined };
  limit: number;
  offset: number;
  expand?: string;
  /** Present when searching; empty when the search had no word, which matches nothing. */
  searchWords?: string[];
  fields?: string[];
}

const OPS = new Set<FilterOp>(['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'contains', 'startsWith', 'exists']);
const FILTER_KEY = /^filter\[([^[\]]+)\](?:\[([^[\]]+)\])?$/;
const KNOWN = new Set(['limit', 'offset', 'orderBy', 'order', 'expand', 'search', 'fields', 'after']);
const STRING_TYPES = new Set<FieldType>([
  'string',
  'text',
  'email',
  'url',
  'slug',
  'select',
  'markdown',
  'richtext',
  'reference',
  'image',
  'file',
  'date',
  'datetime',
]);
const ORDERED_TYPES = new Set<FieldType>([...STRING_TYPES, 'number', 'integer', 'boolean']);
const MAX_IN_VALUES = 100;

/** Turns the query string of a list request into typed conditions, checked against the schema. */
export function parseListQuery(schema: CompiledSchema, query: Record<string, unknown>): ParsedListQuery {
  const conditions: Condition[] = [];
  for (const [key, raw] of Object.entries(query)) {
    if (KNOWN.has(key)) {
      if (typeof raw !== 'string') throw bad(key, 'must be given once');
      continue;
    }
    const m = FILTER_KEY.exec(key);
    if (!m)
      throw bad(key, key.startsWith('filter') ? 'malformed filter; use filter[field] or filter[field][op]' : 'unknown query parameter');
    if (typeof raw !== 'string') throw bad(key, 'must be given once');
    conditions.push(parseFilter(schema, m[1], (m[2] ?? 'eq') as FilterOp, raw, key));
  }

  const { limit, offset } = parsePaging(query.limit, query.offset);
  const order = query.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw bad('order', 'must be asc or desc');
  const orderBy = (query.orderBy as string | undefined) || '_createdAt';
  const target = resolveTarget(schema, orderBy, 'orderBy');
  if (target.array || !ORDERED_TYPES.has(target.type)) throw bad('orderBy', `cannot order by ${orderBy}`);
  // A cursor names the position itself: an offset on top of it would have no stable meaning.
  const cursor = query.after as string | undefined;
  if (cursor && offset !== 0) throw bad('after', 'cannot be combined with offset');
  const after = cursor
    ? { anchor: decodeCursor(cursor, { orderBy, direction: order }, { ...target, nullable: orderMayBeNull(target.operand) }) }
    : undefined;

  const search = query.search as string | undefined;
  const words = search ? searchWords(search) : undefined;
  return {
    conditions,
    order: { operand: target.operand, direction: order },
    orderBy,
    after,
    limit,
    offset,
    expand: (query.expand as string | undefined) || undefined,
    // A search with no searchable word matches nothing rather than everything.
    searchWords: search !== undefined && search.trim() !== '' ? words : undefined,
    fields: parseFields(schema, query.fields as string | undefined),
  };
}

function parseFields(schema: CompiledSchema, raw: string | undefined): string[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!schema.fieldMap.has(name) && !systemField(name) && name !== '_type') throw bad('fields', `unknown field ${name}`);
  }
  return names;
}

interface Target extends FilterTarget {
  operand: Operand;
  array: boolean;
}

function resolveTarget(schema: CompiledSchema, name: string, param: string): Target {
  const sys = systemField(name);
  if (sys) return { operand: { column: sys.column }, type: sys.type, range: sys.range, array: false };
  const resolved = resolveFieldPath(schema, name);
  if (!resolved) throw bad(param, `unknown field ${name} on ${schema.name}`);
  return { operand: { json: resolved.path, array: resolved.array || undefined }, type: resolved.type, array: resolved.array };
}

function parseFilter(schema: CompiledSchema, name: string, op: FilterOp, raw: string, key: string): Condition {
  if (!OPS.has(op)) throw bad(key, `unknown operator ${op}; use one of ${[...OPS].join(', ')}`);
  const target = resolveTarget(schema, name, key);
  if (op === 'exists') {
    if (raw !== 'true' && raw !== 'false') throw bad(key, 'must be true or false');
    return { operand: target.operand, op, value: raw === 'true' };
  }
  const structured = target.type === 'object' || target.type === 'geopoint' || target.type === 'json' || target.type === 'array';
  if (structured) throw bad(key, `${name} can only be filtered with exists`);
  if (target.array && !['eq', 'ne', 'in', 'nin', 'contains'].includes(op)) throw bad(key, `${op} does not apply to the list field ${name}`);
  if ((op === 'contains' || op === 'startsWith') && !target.array && !STRING_TYPES.has(target.type))
    throw bad(key, `${op} applies to text fields only`);
  if (['gt', 'gte', 'lt', 'lte'].includes(op) && target.type === 'boolean') throw bad(key, `${op} does not apply to true/false fields`);
  if (op === 'in' || op === 'nin') {
    const parts = raw.split(',');
    if (parts.length > MAX_IN_VALUES) throw bad(key, `at most ${MAX_IN_VALUES} values`);
    return { operand: target.operand, op, value: parts.map((p) => filterValue(target, p, key)) };
  }
  const value =
    op === 'contains' || op === 'startsWith' ? (target.array ? filterValue(target, raw, key) : raw) : filterValue(target, raw, key);
  return { operand: target.operand, op, value };
}
