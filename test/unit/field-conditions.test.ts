import { describe, expect, it } from 'vitest';
import { conditionHolds } from '../../packages/client/src/field-conditions.js';

/** The studio's `hidden` / `readOnly` rules (docs/api.md, "Schemas"), evaluated on a document's values. */
describe('conditionHolds', () => {
  const doc = { kind: 'video', tags: ['a'], empty: [], blank: '', none: null, meta: { n: 1, list: [1, 2] }, count: 0 };

  it('holds for true and never for false or no rule', () => {
    expect(conditionHolds(true, {})).toBe(true);
    expect(conditionHolds(false, doc)).toBe(false);
    expect(conditionHolds(undefined, doc)).toBe(false);
  });

  it('compares with eq and ne by content, an absent field equal to nothing', () => {
    expect(conditionHolds({ field: 'kind', eq: 'video' }, doc)).toBe(true);
    expect(conditionHolds({ field: 'kind', eq: 'text' }, doc)).toBe(false);
    expect(conditionHolds({ field: 'meta', eq: { list: [1, 2], n: 1 } }, doc)).toBe(true);
    expect(conditionHolds({ field: 'meta', eq: { n: 1 } }, doc)).toBe(false);
    expect(conditionHolds({ field: 'count', eq: 0 }, doc)).toBe(true);
    expect(conditionHolds({ field: 'missing', eq: null }, doc)).toBe(false);
    expect(conditionHolds({ field: 'missing', ne: 'x' }, doc)).toBe(true);
    expect(conditionHolds({ field: 'kind', ne: 'video' }, doc)).toBe(false);
    expect(conditionHolds({ field: 'tags', eq: ['a'] }, doc)).toBe(true);
  });

  it('finds a value in a list with in', () => {
    expect(conditionHolds({ field: 'kind', in: ['text', 'video'] }, doc)).toBe(true);
    expect(conditionHolds({ field: 'kind', in: [] }, doc)).toBe(false);
    expect(conditionHolds({ field: 'missing', in: [null] }, doc)).toBe(false);
  });

  it('counts absent, null, empty strings and empty lists as not existing', () => {
    for (const field of ['missing', 'none', 'blank', 'empty']) {
      expect(conditionHolds({ field, exists: true }, doc)).toBe(false);
      expect(conditionHolds({ field, exists: false }, doc)).toBe(true);
    }
    for (const field of ['kind', 'tags', 'count', 'meta']) expect(conditionHolds({ field, exists: true }, doc)).toBe(true);
  });

  it('combines rules with all, any and not', () => {
    const video = { field: 'kind', eq: 'video' };
    const text = { field: 'kind', eq: 'text' };
    expect(conditionHolds({ all: [video, { field: 'tags', exists: true }] }, doc)).toBe(true);
    expect(conditionHolds({ all: [video, text] }, doc)).toBe(false);
    expect(conditionHolds({ any: [text, video] }, doc)).toBe(true);
    expect(conditionHolds({ any: [text] }, doc)).toBe(false);
    expect(conditionHolds({ not: text }, doc)).toBe(true);
    expect(conditionHolds({ not: { any: [text, { not: video }] } }, doc)).toBe(true);
  });

  it('reads only own members of the values', () => {
    expect(conditionHolds({ field: 'toString', exists: true }, {})).toBe(false);
  });
});
