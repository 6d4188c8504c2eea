import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * `GET /config/schemas` carries what the studio needs to show each field (docs/api.md, "Schemas"),
 * nested fields included, so the studio names no field type: the one-line input's type, the number
 * step, how a stored string is shown, a media field's default `accept`, a new array item's value and
 * the control of an array of references.
 */
const SCHEMAS = [
  {
    name: 'event',
    title: 'Event',
    fields: [
      { name: 'title', type: 'string' },
      { name: 'contact', type: 'email' },
      { name: 'website', type: 'url' },
      { name: 'startsOn', type: 'date' },
      { name: 'publishAt', type: 'datetime' },
      { name: 'price', type: 'number' },
      { name: 'seats', type: 'integer' },
      { name: 'poster', type: 'image' },
      { name: 'brochure', type: 'file' },
      { name: 'talks', type: 'array', of: { type: 'object', fields: [{ name: 'day', type: 'date' }] } },
      { name: 'related', type: 'array', of: { type: 'reference', to: 'event' } },
      { name: 'keywords', type: 'array', of: { type: 'string' } },
    ],
  },
];

let t: TestApp;
let fields: Array<{ name: string; studio: Record<string, unknown>; of?: { studio: unknown; fields: Array<{ studio: unknown }> } }>;
const hintsOf = (name: string) => fields.find((f) => f.name === name)?.studio;

beforeAll(async () => {
  t = await startTestApp({ schemas: SCHEMAS });
  const res = await t.request({ method: 'GET', url: '/api/config/schemas' });
  expect(res.statusCode).toBe(200);
  fields = res.json().data[0].fields;
});
afterAll(() => t?.close());

describe('GET /config/schemas: the studio hints of each field', () => {
  it("names the one-line input's type for email, url and date, and none for a plain string", () => {
    expect(hintsOf('contact')).toMatchObject({ control: 'string', input: 'email' });
    expect(hintsOf('website')).toMatchObject({ control: 'string', input: 'url' });
    expect(hintsOf('startsOn')).toMatchObject({ control: 'string', input: 'date', display: 'date' });
    expect(hintsOf('title')).not.toHaveProperty('input');
  });

  it('steps integers by 1 and shows date-times as moments', () => {
    expect(hintsOf('seats')).toMatchObject({ control: 'number', step: 1 });
    expect(hintsOf('price')).not.toHaveProperty('step');
    expect(hintsOf('publishAt')).toMatchObject({ control: 'datetime', display: 'datetime' });
  });

  it("gives an image field images as its default accept, a file field none, and an object item's new value", () => {
    expect(hintsOf('poster')).toMatchObject({ control: 'media', accept: ['image/'] });
    expect(hintsOf('brochure')).not.toHaveProperty('accept');
    const talks = fields.find((f) => f.name === 'talks');
    expect(talks?.of?.studio).toMatchObject({ control: 'object', emptyValue: {} });
    expect(talks?.of?.fields[0].studio).toMatchObject({ input: 'date', display: 'date' });
  });

  it('gives an array of references its own control (chips, search, drag); other arrays keep theirs', () => {
    expect(hintsOf('related')).toMatchObject({ control: 'referenceList' });
    expect(fields.find((f) => f.name === 'related')?.of?.studio).toMatchObject({ control: 'reference' });
    expect(hintsOf('keywords')).toMatchObject({ control: 'array' });
    expect(hintsOf('talks')).toMatchObject({ control: 'array' });
  });
});
