import { FIELD_TYPES, filterOperators } from '../../field-types/index.js';
import { orderMayBeNull } from '../../storage/documents/list-documents-query.js';
import type { Condition, FieldRef, FilterOp, ListOrder, PageAnchor, Untranslated } from './list-query.js';
import { parsePaging } from '../shared/paging.js';
import { resolveFieldPath } from '../schemas/field-paths.js';
import type { CompiledSchema } from '../schemas/schema-registry.js';
import { systemField } from './system-fields.js';
import { localeWord, searchWords } from './search-text.js';
import { badParam as bad, filterValue, type FilterTarget } from './filter-value.js';
import { decodeCursor } from './list-cursor.js';

import { PERSPECTIVES, type Perspective } from './perspective.js';
import { queryChain, searchLocale, type DocumentLocale } from '../locales/document-locales.js';
import { localePrefix } from '../locales/localized-data.js';

export interface ParsedListQuery {
  conditions: Condition[];
  order: ListOrder;
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
  /** `perspective=published|drafts` (docs/drafts.md); absent: main versions, as before drafts. */
  perspective?: Perspective;
  /** `untranslated=<code>` (docs/localization.md, "Translation status"). */
  untranslated?: Untranslated;
  /** `filter[_draft][exists]=true|false` under `perspective=drafts` (docs/drafts.md, "Reading"). */
  pendingDraft?: boolean;
}

const OPS = new Set<FilterOp>(['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'contains', 'startsWith', 'exists']);
const MAX_IN_VALUES = 100;

/**
 * A list request's parameters as the caller gave them (the HTTP layer reads them from the query
 * string, `http/routes/documents/list-params.ts`; a CLI or a test builds them directly). Values are
 * text: their type is the field's, known only here.
 */
export interface ListParams {
  /** `field` a dotted path or a system field; `op` one of the operators; `param` names it in errors (`filter[price][gt]`). */
  filters: Array<{ field: string; op: string; value: string; param: string }>;
  limit?: string;
  offset?: string;
  orderBy?: string;
  order?: string;
  /** `natural=true`: order text by its natural key (docs/api.md, "Natural order"). */
  natural?: string;
  expand?: string;
  search?: string;
  fields?: string;
  after?: string;
  perspective?: string;
  /** `locale=<code>|*` (docs/localization.md); read by the operation, which hands the parsed locale in. */
  locale?: string;
  /** A locale code: only documents with a localized field it has not translated. */
  untranslated?: string;
}

/** Turns a list request's parameters into typed conditions, checked against the schema. */
export function parseListQuery(schema: CompiledSchema, query: ListParams, locale?: DocumentLocale): ParsedListQuery {
  const perspective = parsePerspective(query.perspective);
  const pendingDraft = parsePendingDraft(query.filters, perspective);
  const conditions = query.filters
    .filter((f) => f.field !== DRAFT_MARKER)
    .map((f) => parseFilter(schema, f.field, f.op as FilterOp, f.value, f.param, locale));
  const { limit, offset } = parsePaging(query.limit, query.offset);
  const order = query.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw bad('order', 'must be asc or desc');
  const orderBy = query.orderBy || '_createdAt';
  const target = resolveTarget(schema, orderBy, 'orderBy', locale);
  if (target.array || !FIELD_TYPES[target.type].orderable) throw bad('orderBy', `cannot order by ${orderBy}`);
  const natural = parseNatural(query.natural, target);
  // A cursor names the position itself: an offset on top of it would have no stable meaning.
  const cursor = query.after;
  if (cursor && offset !== 0) throw bad('after', 'cannot be combined with offset');
  const after = cursor
    ? { anchor: decodeCursor(cursor, { orderBy, direction: order, natural }, { ...target, nullable: orderMayBeNull(target.field) }) }
    : undefined;

  const search = query.search;
  // In a locale other than the default, the words of that locale's text (search-text.ts).
  const inLocale = locale ? searchLocale(locale) : undefined;
  const words = search ? searchWords(search).map((w) => (inLocale ? localeWord(inLocale, w) : w)) : undefined;
  return {
    conditions,
    order: { field: target.field, direction: order, ...(natural ? { natural } : {}) },
    orderBy,
    after,
    limit,
    offset,
    expand: query.expand || undefined,
    // A search with no searchable word matches nothing rather than everything.
    searchWords: search !== undefined && search.trim() !== '' ? words : undefined,
    fields: parseFields(schema, query.fields),
    perspective,
    untranslated: parseUntranslated(schema, query.untranslated, locale),
    ...(pendingDraft !== undefined ? { pendingDraft } : {}),
  };
}

/**
 * `natural=true|false` (false when absent): a natural order compares text people read, so it
 * applies to the types that say so (`naturalOrder`: not dates, numbers or ids).
 */
function parseNatural(raw: string | undefined, target: Target): boolean {
  if (raw === undefined || raw === 'false') return false;
  if (raw !== 'true') throw bad('natural', 'must be true or false');
  if (FIELD_TYPES[target.type].naturalOrder !== true) throw bad('natural', 'applies to text fields only');
  return true;
}

/** The marker a main version with a pending draft carries; as a filter, whether there is one. */
const DRAFT_MARKER = '_draft';

/**
 * `filter[_draft][exists]=true|false`: documents with (or without) a pending draft. Only under
 * `perspective=drafts`, which already needs read permission on every status (pending drafts are
 * never public) and whose list is refreshed by draft writes (docs/drafts.md, "Reading").
 */
function parsePendingDraft(filters: ListParams['filters'], perspective: Perspective | undefined): boolean | undefined {
  const f = filters.find((x) => x.field === DRAFT_MARKER);
  if (!f) return undefined;
  if (f.op !== 'exists') throw bad(f.param, 'filter _draft with exists only (filter[_draft][exists]=true)');
  if (f.value !== 'true' && f.value !== 'false') throw bad(f.param, 'must be true or false');
  if (perspective !== 'drafts') throw bad(f.param, 'needs perspective=drafts');
  return f.value === 'true';
}

/**
 * `untranslated=<code>`: a configured locale other than the default. Without locales configured
 * the parameter has nothing to name (400, as an unknown `locale` is).
 */
function parseUntranslated(schema: CompiledSchema, raw: string | undefined, locale: DocumentLocale | undefined): Untranslated | undefined {
  if (raw === undefined) return undefined;
  const locales = locale?.locales;
  const code = locales?.list.find((l) => l.code.toLowerCase() === raw.toLowerCase())?.code;
  if (!locales || code === undefined || code === locales.default) {
    const others = locales?.list.filter((l) => l.code !== locales.default).map((l) => l.code) ?? [];
    throw bad('untranslated', others.length > 0 ? `must be one of ${others.join(', ')}` : 'no content locales are configured');
  }
  return { place: localePrefix(code, locales), fields: schema.localized.map((f) => f.name) };
}

export function parsePerspective(raw: string | undefined): Perspective | undefined {
  if (raw === undefined) return undefined;
  if (!(PERSPECTIVES as readonly string[]).includes(raw)) throw bad('perspective', `must be one of ${PERSPECTIVES.join(', ')}`);
  return raw as Perspective;
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
  field: FieldRef;
  array: boolean;
}

function resolveTarget(schema: CompiledSchema, name: string, param: string, locale: DocumentLocale | undefined): Target {
  const sys = systemField(name);
  if (sys) return { field: { system: sys.name }, type: sys.type, range: sys.range, array: false };
  const resolved = resolveFieldPath(schema, name);
  if (!resolved) throw bad(param, `unknown field ${name} on ${schema.name}`);
  const chain = locale && schema.localizedNames.has(resolved.path[0]) ? queryChain(locale) : undefined;
  const field = {
    path: resolved.path,
    array: resolved.array || undefined,
    ...(resolved.element ? { element: resolved.element } : {}),
    ...(chain ? { chain } : {}),
  };
  return { field, type: resolved.type, array: resolved.array };
}

function parseFilter(schema: CompiledSchema, name: string, op: FilterOp, raw: string, key: string, locale?: DocumentLocale): Condition {
  if (!OPS.has(op)) throw bad(key, `unknown operator ${op}; use one of ${[...OPS].join(', ')}`);
  const target = resolveTarget(schema, name, key, locale);
  if (op === 'exists') {
    if (raw !== 'true' && raw !== 'false') throw bad(key, 'must be true or false');
    return { field: target.field, op, value: raw === 'true' };
  }
  const spec = FIELD_TYPES[target.type];
  if (!filterOperators(spec, target.array).includes(op)) {
    if (spec.structured) throw bad(key, `${name} can only be filtered with exists`);
    if (target.array) throw bad(key, `${op} does not apply to the list field ${name}`);
    if (op === 'contains' || op === 'startsWith') throw bad(key, `${op} applies to text fields only`);
    throw bad(key, `${op} does not apply to true/false fields`);
  }
  if (op === 'in' || op === 'nin') {
    const parts = raw.split(',');
    if (parts.length > MAX_IN_VALUES) throw bad(key, `at most ${MAX_IN_VALUES} values`);
    return { field: target.field, op, value: parts.map((p) => filterValue(target, p, key)) };
  }
  const value =
    op === 'contains' || op === 'startsWith' ? (target.array ? filterValue(target, raw, key) : raw) : filterValue(target, raw, key);
  return { field: target.field, op, value };
}
