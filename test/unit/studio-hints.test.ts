import { describe, expect, it } from 'vitest';
import { withStudioHints, type AnyFieldDef } from '../../packages/server/src/field-types/index.js';

// What `GET /config/schemas` tells the studio about showing each field (docs/api.md, "Schemas"),
// so the studio names no field type: the one-line input's type, the number step, how a stored
// string is shown, a media field's default `accept` and a new array item's value.

const hints = (field: AnyFieldDef) => withStudioHints(field).studio;

describe('studio hints of the field-type table', () => {
  it('the one-line control takes the input type of email, url and date; other strings are text', () => {
    expect(hints({ type: 'email' })).toMatchObject({ control: 'string', input: 'email' });
    expect(hints({ type: 'url' })).toMatchObject({ control: 'string', input: 'url' });
    expect(hints({ type: 'date' })).toMatchObject({ control: 'string', input: 'date' });
    expect(hints({ type: 'string' }).input).toBeUndefined();
  });

  it('integers step by 1; other numbers by any amount', () => {
    expect(hints({ type: 'integer' })).toMatchObject({ control: 'number', step: 1 });
    expect(hints({ type: 'number' })).toMatchObject({ control: 'number' });
    expect(hints({ type: 'number' }).step).toBeUndefined();
  });

  it('dates show as a day, date-times as a moment, other strings as they are', () => {
    expect(hints({ type: 'date' }).display).toBe('date');
    expect(hints({ type: 'datetime' })).toMatchObject({ control: 'datetime', display: 'datetime' });
    for (const type of ['string', 'select', 'slug'] as const) expect(hints({ type }).display, type).toBeUndefined();
  });

  it('an image takes images unless it names its own accept; a file takes anything', () => {
    expect(hints({ type: 'image' })).toMatchObject({ control: 'media', accept: ['image/'] });
    expect(hints({ type: 'file' }).control).toBe('media');
    expect(hints({ type: 'file' }).accept).toBeUndefined();
  });

  it('a new item of a list of objects starts as an empty object; of other types, as no value', () => {
    const list = withStudioHints({ type: 'array', of: { type: 'object', fields: [{ name: 'a', type: 'string' }] } });
    const of = list.of as ReturnType<typeof withStudioHints>;
    expect(of.studio.emptyValue).toEqual({});
    expect(hints({ type: 'string' }).emptyValue).toBeUndefined();
    expect(hints({ type: 'reference', to: 'post' }).emptyValue).toBeUndefined();
  });

  it('an array of references is a reference list; the item type names that control, the array does not name the type', () => {
    expect(hints({ type: 'array', of: { type: 'reference', to: 'post' } }).control).toBe('referenceList');
    expect(hints({ type: 'array', of: { type: 'string' } }).control).toBe('array');
    expect(hints({ type: 'blocks', of: [{ name: 'hero', fields: [] }] } as AnyFieldDef).control).toBe('blocks');
  });

  it('every hint survives JSON, as the route sends it', () => {
    const field: AnyFieldDef = { type: 'object', fields: [{ name: 'when', type: 'date' }] };
    const sent = withStudioHints(field);
    expect(JSON.parse(JSON.stringify(sent))).toEqual(sent);
  });
});
