import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { png } from '../helpers/media-fixtures.js';
import { multipartUpload } from '../helpers/multipart-upload.js';
import { postDocument } from '../helpers/post-document.js';
import type { JsonObject } from '../helpers/json-object.js';

/**
 * The `blocks` field (docs/api.md, "Blocks"): a list of objects tagged `_type` and `_key`, each
 * validated by its block's fields, and reached like any other field by expand, filters, delete
 * protection, search, OpenAPI and the studio's hints.
 */
const SCHEMAS = [
  { name: 'person', title: 'Person', fields: [{ name: 'name', type: 'string', required: true }] },
  {
    name: 'page',
    title: 'Page',
    fields: [
      { name: 'title', type: 'string', required: true },
      {
        name: 'sections',
        type: 'blocks',
        maxItems: 4,
        of: [
          {
            name: 'hero',
            title: 'Hero',
            fields: [
              { name: 'heading', type: 'string', required: true },
              { name: 'image', type: 'image' },
            ],
          },
          {
            name: 'quote',
            fields: [
              { name: 'text', type: 'text', required: true },
              { name: 'author', type: 'reference', to: 'person' },
            ],
          },
        ],
      },
    ],
  },
];

const KEY = /^[A-Za-z0-9_-]{1,64}$/;

let t: TestApp;
let admin: string;
let ann: string;
let ben: string;
let mediaId: string;

useAdminApp(
  () => startTestApp({ schemas: SCHEMAS }),
  (app, token) => ((t = app), (admin = token)),
);

beforeAll(async () => {
  ann = (await postDocument(t, admin, 'person', { name: 'Ann', _status: 'published' }))._id as string;
  ben = (await postDocument(t, admin, 'person', { name: 'Ben', _status: 'published' }))._id as string;
  const upload = await multipartUpload(await png(4, 4), 'hero.png');
  const res = await t.request({ method: 'POST', url: '/api/media', token: admin, payload: upload.payload, headers: upload.headers });
  expect(res.statusCode, res.body).toBe(201);
  mediaId = res.json().data._id;
});

const write = (payload: Record<string, unknown>, method: 'POST' | 'PUT' = 'POST', id = '') =>
  t.request({ method, url: `/api/documents/page${id ? `/${id}` : ''}`, token: admin, payload });

const detailsOf = (res: { json(): { error: { details?: Array<{ field: string; message: string }> } } }) =>
  res.json().error.details?.map((d) => d.field);

describe('blocks: values', () => {
  it('stores each block with its _type and a generated _key, keeping a key the client sent', async () => {
    const doc = await postDocument(t, admin, 'page', {
      title: 'Keys',
      sections: [
        { _type: 'hero', heading: 'Hi' },
        { _type: 'quote', _key: 'my-quote_1', text: 'Said' },
        { _type: 'hero', heading: 'Again' },
      ],
    });
    const [a, b, c] = doc.sections as Array<Record<string, unknown>>;
    expect(a).toMatchObject({ _type: 'hero', heading: 'Hi' });
    expect(a._key).toMatch(KEY);
    expect(b).toEqual({ _type: 'quote', _key: 'my-quote_1', text: 'Said' });
    expect(c._key).toMatch(KEY);
    expect(new Set([a._key, b._key, c._key]).size).toBe(3);

    // A PUT sending the keys back keeps them: they are stable across saves.
    const res = await write({ title: 'Keys', sections: doc.sections }, 'PUT', doc._id as string);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.sections.map((s: { _key: string }) => s._key)).toEqual([a._key, 'my-quote_1', c._key]);
  });

  it('checks each block by its own fields, with dotted paths', async () => {
    const res = await write({
      title: 'Bad',
      sections: [{ _type: 'hero' }, { _type: 'quote', text: 5, extra: 1 }, { _type: 'video', url: 'x' }, 'text'],
    });
    expect(res.statusCode).toBe(422);
    expect(detailsOf(res)).toEqual(['sections.0.heading', 'sections.1.extra', 'sections.1.text', 'sections.2._type', 'sections.3']);
    expect(res.json().error.details[3].message).toBe('must be one of hero, quote');
  });

  it('refuses a duplicate or malformed _key at its path, and more blocks than maxItems', async () => {
    const dup = await write({
      title: 'Dup',
      sections: [
        { _type: 'hero', _key: 'k1', heading: 'a' },
        { _type: 'hero', _key: 'k1', heading: 'b' },
      ],
    });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().error.details).toEqual([{ field: 'sections.1._key', message: 'is also the key of sections.0' }]);

    for (const key of ['', 'has space', 'x'.repeat(65), 7]) {
      const res = await write({ title: 'Key', sections: [{ _type: 'hero', _key: key, heading: 'a' }] });
      expect(res.statusCode, JSON.stringify(key)).toBe(422);
      expect(detailsOf(res)).toEqual(['sections.0._key']);
    }

    const many = await write({ title: 'Many', sections: Array.from({ length: 5 }, () => ({ _type: 'hero', heading: 'h' })) });
    expect(many.statusCode).toBe(422);
    expect(detailsOf(many)).toEqual(['sections']);
  });
});

describe('blocks: queries', () => {
  let withQuote: string;
  let heroOnly: string;

  beforeAll(async () => {
    withQuote = (
      await postDocument(t, admin, 'page', {
        title: 'Quoted',
        _status: 'published',
        sections: [
          { _type: 'hero', heading: 'Welcome', image: mediaId },
          { _type: 'quote', text: 'An aphorism worth keeping', author: ann },
        ],
      })
    )._id as string;
    heroOnly = (
      await postDocument(t, admin, 'page', { title: 'Plain', _status: 'published', sections: [{ _type: 'hero', heading: 'Hello' }] })
    )._id as string;
  });

  const list = async (query: string) => {
    const res = await t.request({ method: 'GET', url: `/api/documents/page?${query}&limit=100`, token: admin });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as JsonObject[];
  };
  const ids = async (query: string) => (await list(query)).map((d) => d._id);

  it('expands references and images inside blocks, in lists and single reads', async () => {
    const [doc] = (await list('expand=sections.author,sections.image')).filter((d) => d._id === withQuote);
    expect(doc.sections[0].image).toMatchObject({ _id: mediaId, mimeType: 'image/png' });
    expect(doc.sections[1].author).toMatchObject({ _id: ann, name: 'Ann' });
    const one = await t.request({ method: 'GET', url: `/api/documents/page/${withQuote}?expand=sections.author`, token: admin });
    expect(one.json().data.sections[1].author).toMatchObject({ _id: ann, name: 'Ann' });
    expect(one.json().data.sections[0].image).toBe(mediaId);
    // The stored document is untouched by an expansion.
    const plain = await t.request({ method: 'GET', url: `/api/documents/page/${withQuote}`, token: admin });
    expect(plain.json().data.sections[1].author).toBe(ann);
  });

  it('filters on _type and on a field inside a block', async () => {
    const quoted = await ids('filter[sections._type]=quote');
    expect(quoted).toContain(withQuote);
    expect(quoted).not.toContain(heroOnly);
    expect(await ids('filter[sections._type][nin]=quote')).toContain(heroOnly);
    expect(await ids('filter[sections._type][nin]=quote')).not.toContain(withQuote);
    expect(await ids('filter[sections.heading]=Hello')).toEqual([heroOnly]);
    expect(await ids(`filter[sections.author]=${ann}`)).toEqual([withQuote]);
    expect(await ids('filter[sections][exists]=true')).toEqual(expect.arrayContaining([withQuote, heroOnly]));
    const bad = await t.request({ method: 'GET', url: '/api/documents/page?filter[sections.heading][gt]=a', token: admin });
    expect(bad.statusCode).toBe(400);
    const unknown = await t.request({ method: 'GET', url: '/api/documents/page?filter[sections.nothing]=a', token: admin });
    expect(unknown.statusCode).toBe(400);
  });

  it('searches the text inside blocks', async () => {
    expect(await ids('search=aphorism')).toEqual([withQuote]);
  });

  it('a reference inside a block protects its target from delete, naming the path', async () => {
    await postDocument(t, admin, 'page', {
      title: 'Ben quoted',
      sections: [
        { _type: 'hero', heading: 'x' },
        { _type: 'quote', text: 'y', author: ben },
      ],
    });
    const res = await t.request({ method: 'DELETE', url: `/api/documents/person/${ben}`, token: admin });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.details).toEqual([expect.objectContaining({ field: 'sections.1.author' })]);
  });
});

describe('blocks: described', () => {
  it('OpenAPI gives a valid document with a union discriminated by _type', async () => {
    const res = await t.request({ method: 'GET', url: '/api/openapi.json' });
    const doc = res.json();
    const result = await new Validator().validate(doc);
    expect(result.errors).toBeUndefined();
    const items = doc.components.schemas.Page.properties.sections.items;
    expect(items.discriminator).toEqual({ propertyName: '_type' });
    expect(items.oneOf).toEqual([
      {
        type: 'object',
        title: 'Hero',
        properties: {
          _type: { const: 'hero' },
          _key: { type: 'string' },
          heading: { type: 'string' },
          // A media id, marked so (docs/api.md, "OpenAPI"): `vellum types` and the typed client expand it to its record.
          image: { type: 'string', 'x-vellum-media': true, description: 'Id of a media file: `expand` replaces it with its record' },
        },
        required: ['_type', '_key', 'heading'],
      },
      expect.objectContaining({ properties: expect.objectContaining({ _type: { const: 'quote' } }), required: ['_type', '_key', 'text'] }),
    ]);
  });

  it('GET /config/schemas names the blocks control and hints for the fields inside blocks', async () => {
    const res = await t.request({ method: 'GET', url: '/api/config/schemas' });
    const sections = res.json().data.find((s: { name: string }) => s.name === 'page').fields[1];
    expect(sections.studio).toMatchObject({ control: 'blocks', orderable: false, filterOperators: ['exists'] });
    expect(sections.of[1].fields[1]).toMatchObject({ name: 'author', studio: { control: 'reference' } });
  });
});
