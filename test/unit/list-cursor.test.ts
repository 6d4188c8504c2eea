import { describe, expect, it } from 'vitest';
import { AppError } from '../../packages/server/src/errors.js';
import { decodeCursor, encodeCursor, type CursorOrder, type CursorTarget } from '../../packages/server/src/domain/documents/list-cursor.js';

/** The cursors of docs/api.md, "Cursor pagination": opaque base64url, decoded only for their own order. */

const TITLE_ASC: CursorOrder = { orderBy: 'title', direction: 'asc' };
const TEXT: CursorTarget = { type: 'string', nullable: true };
const CREATED: CursorTarget = { type: 'datetime', nullable: false };
const REV: CursorTarget = { type: 'integer', range: [-2_147_483_648, 2_147_483_647], nullable: false };

const b64 = (body: unknown) => Buffer.from(JSON.stringify(body)).toString('base64url');

/** The 400 a refused cursor gives, or the position it names. */
function attempt(raw: string, order: CursorOrder = TITLE_ASC, target: CursorTarget = TEXT) {
  try {
    return { at: decodeCursor(raw, order, target) };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { status: err.status, code: err.code, field: err.details?.[0]?.field };
  }
}
const refused = { status: 400, code: 'INVALID_INPUT', field: 'after' };

describe('list cursors', () => {
  it.each([
    [TITLE_ASC, TEXT, { value: 'Ünïcode – "quoted"', seq: 42 }],
    [TITLE_ASC, TEXT, { value: null, seq: 7 }],
    [{ orderBy: 'price', direction: 'desc' } as const, { type: 'number', nullable: true } as CursorTarget, { value: 2.5, seq: 1 }],
    [{ orderBy: 'featured', direction: 'asc' } as const, { type: 'boolean', nullable: true } as CursorTarget, { value: false, seq: 9 }],
    [{ orderBy: '_rev', direction: 'asc' } as const, REV, { value: 2_147_483_647, seq: Number.MAX_SAFE_INTEGER }],
    [{ orderBy: '_createdAt', direction: 'desc' } as const, CREATED, { value: '2026-01-01T00:00:00.000Z', seq: 0 }],
  ])('round-trips %j at %j', (order, target, at) => {
    const cursor = encodeCursor(order, at);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, order, target)).toEqual(at);
  });

  it('names the start when it carries no position', () => {
    const cursor = encodeCursor(TITLE_ASC, undefined);
    expect(JSON.parse(Buffer.from(cursor, 'base64url').toString())).toEqual({ o: 'title', d: 'asc' });
    expect(attempt(cursor)).toEqual({ at: undefined });
  });

  it('carries the order and the position as small JSON', () => {
    const cursor = encodeCursor(TITLE_ASC, { value: 'Beta', seq: 12 });
    expect(JSON.parse(Buffer.from(cursor, 'base64url').toString())).toEqual({ o: 'title', d: 'asc', v: 'Beta', s: 12 });
  });

  it('refuses a cursor of another order', () => {
    const cursor = encodeCursor(TITLE_ASC, { value: 'Beta', seq: 12 });
    expect(attempt(cursor, { orderBy: 'title', direction: 'desc' })).toEqual(refused);
    expect(attempt(cursor, { orderBy: 'slug', direction: 'asc' })).toEqual(refused);
  });

  it.each([
    ['not base64url', 'a+b/c='],
    ['not JSON', Buffer.from('{').toString('base64url')],
    ['an array', b64(['title', 'asc'])],
    ['a string', b64('title')],
    ['null', b64(null)],
    ['no direction', b64({ o: 'title', v: 'a', s: 1 })],
    ['a value without seq', b64({ o: 'title', d: 'asc', v: 'a' })],
    ['a seq without value', b64({ o: 'title', d: 'asc', s: 1 })],
    ['a fractional seq', b64({ o: 'title', d: 'asc', v: 'a', s: 1.5 })],
    ['a negative seq', b64({ o: 'title', d: 'asc', v: 'a', s: -1 })],
    ['a seq past 2^53', b64({ o: 'title', d: 'asc', v: 'a', s: 2 ** 53 })],
    ['a number for a text field', b64({ o: 'title', d: 'asc', v: 1, s: 1 })],
    ['an object value', b64({ o: 'title', d: 'asc', v: { a: 1 }, s: 1 })],
    ['an unknown key', b64({ o: 'title', d: 'asc', v: 'a', s: 1, x: 0 })],
  ])('refuses %s', (_, raw) => {
    expect(attempt(raw)).toEqual(refused);
  });

  it('refuses values the ordered field cannot hold', () => {
    const rev = { orderBy: '_rev', direction: 'asc' } as const;
    expect(attempt(b64({ o: '_rev', d: 'asc', v: 2_147_483_648, s: 1 }), rev, REV)).toEqual(refused);
    expect(attempt(b64({ o: '_rev', d: 'asc', v: 1.5, s: 1 }), rev, REV)).toEqual(refused);
    expect(attempt(b64({ o: '_rev', d: 'asc', v: null, s: 1 }), rev, REV)).toEqual(refused);
    const created = { orderBy: '_createdAt', direction: 'desc' } as const;
    expect(attempt(b64({ o: '_createdAt', d: 'desc', v: null, s: 1 }), created, CREATED)).toEqual(refused);
    const flag = { orderBy: 'featured', direction: 'asc' } as const;
    expect(attempt(b64({ o: 'featured', d: 'asc', v: 1, s: 1 }), flag, { type: 'boolean', nullable: true })).toEqual(refused);
  });
});
