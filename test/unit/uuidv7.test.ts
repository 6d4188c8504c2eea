import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../../packages/server/src/domain/shared/ids.js';

// RFC 9562 §5.7 (layout) and §6.2 method 1 (a counter keeps ids of one millisecond in order).
describe('uuidv7', () => {
  const FORMAT = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('has the version 7 and variant bits, and the millisecond timestamp in the first 48 bits', () => {
    const at = Date.UTC(2026, 10, 25, 3, 0, 0, 123);
    const id = uuidv7(at);
    expect(id).toMatch(FORMAT);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('ids made in one millisecond sort in the order they were made (at least 2048 of them)', () => {
    const at = Date.UTC(2026, 10, 25, 3, 0, 1);
    const ids = Array.from({ length: 2048 }, () => uuidv7(at));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(FORMAT);
  });

  it('a later millisecond sorts after an earlier one whatever the counter reached', () => {
    const at = Date.UTC(2026, 10, 25, 3, 0, 2);
    const early = Array.from({ length: 100 }, () => uuidv7(at));
    const later = uuidv7(at + 1);
    expect(early.every((id) => id < later)).toBe(true);
  });
});
