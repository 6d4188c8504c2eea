import type { FieldType } from '../../config/types.js';
import type { FilterValue, PageAnchor } from './list-query.js';
import { FIELD_TYPES } from '../../field-types/index.js';
import { badParam } from './filter-value.js';

/** The order a cursor belongs to: `orderBy` as asked (`_createdAt` when absent) and `order`. */
export interface CursorOrder {
  orderBy: string;
  direction: 'asc' | 'desc';
  /** A natural order (`natural=true`): its cursors carry `n: 1`, and only its cursors do. */
  natural?: boolean;
}

/** What the sort value in a cursor must be: typed as the ordered field, null only where it can be absent. */
export interface CursorTarget {
  type: FieldType;
  /** Integer columns narrower than a JSON number (`_rev`). */
  range?: readonly [number, number];
  nullable: boolean;
}

/**
 * The JSON inside a cursor (docs/api.md, "Cursor pagination"): the order (`o`, `d`) and the
 * position, the last row's sort value `v` and its `seq` `s`. Without `v`/`s` it names the start.
 */
interface CursorBody {
  o: string;
  d: 'asc' | 'desc';
  n?: 1;
  v?: FilterValue | null;
  s?: number;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const KEYS = new Set(['o', 'd', 'n', 'v', 's']);

/** `meta.nextCursor`: the page after `at` (undefined: from the start) in this order. */
export function encodeCursor(order: CursorOrder, at: PageAnchor | undefined): string {
  const body: CursorBody = { o: order.orderBy, d: order.direction, ...(order.natural ? { n: 1 as const } : {}) };
  if (at) Object.assign(body, { v: at.value, s: at.seq });
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

/**
 * The position an `after` cursor names: the row to start after, or undefined for the start.
 * Anything not made by `encodeCursor` for this order is a 400 naming `after`, checked here so
 * that no malformed value reaches the database.
 */
export function decodeCursor(raw: string, order: CursorOrder, target: CursorTarget): PageAnchor | undefined {
  const malformed = () => badParam('after', 'is not a cursor from meta.nextCursor');
  if (!BASE64URL.test(raw)) throw malformed();
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw malformed();
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw malformed();
  const b = body as Record<string, unknown>;
  if (!Object.keys(b).every((k) => KEYS.has(k)) || typeof b.o !== 'string' || (b.d !== 'asc' && b.d !== 'desc')) throw malformed();
  if (b.n !== undefined && b.n !== 1) throw malformed();
  if (b.o !== order.orderBy || b.d !== order.direction || (b.n === 1) !== (order.natural === true)) {
    throw badParam('after', 'belongs to another order: keep orderBy, order and natural as they were for the first page');
  }
  if (!('s' in b) && !('v' in b)) return undefined;
  if (!('v' in b) || typeof b.s !== 'number' || !Number.isSafeInteger(b.s) || b.s < 0) throw malformed();
  if (!fits(b.v, target)) throw malformed();
  return { value: b.v as FilterValue | null, seq: b.s };
}

/** The value is one the ordered field can hold, so it compares (and binds) as the field's values do. */
function fits(v: unknown, target: CursorTarget): boolean {
  if (v === null) return target.nullable;
  return FIELD_TYPES[target.type].holds(v, target.range);
}
