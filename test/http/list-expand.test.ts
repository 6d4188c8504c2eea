import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { postDocument } from '../helpers/post-document.js';
import { spyQueries } from '../helpers/query-spy.js';
import type { JsonObject } from '../helpers/json-object.js';

/**
 * Expansion in lists (docs/api.md, "List queries"): every shape a reference can take — a field, a
 * list of them, a field inside an object, a field that may point at several types — comes back
 * expanded, the policy decides what the caller sees, a dangling id stays an id, every path of a
 * level is one query, and each listed document equals the same document read alone.
 */
const SCHEMAS = [
  { name: 'person', title: 'Person', fields: [{ name: 'name', type: 'string', required: true }] },
  { name: 'note', title: 'Note', public: false, fields: [{ name: 'text', type: 'string' }] },
  {
    name: 'article',
    title: 'Article',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'author', type: 'reference', to: 'person' },
      { name: 'reviewers', type: 'array', of: { type: 'reference', to: 'person' } },
      { name: 'credits', type: 'object', fields: [{ name: 'editor', type: 'reference', to: 'person' }] },
      { name: 'note', type: 'reference', to: 'note' },
      { name: 'seeAlso', type: 'reference', to: ['article', 'person'] },
    ],
  },
];

let t: TestApp;
let admin: string;
const ids: Record<string, string> = {};

useAdminApp(
  () => startTestApp({ schemas: SCHEMAS }),
  (app, token) => ((t = app), (admin = token)),
);

async function create(key: string, type: string, payload: Record<string, unknown>) {
  ids[key] = (await postDocument(t, admin, type, payload))._id as string;
}

beforeAll(async () => {
  await create('ann', 'person', { name: 'Ann', _status: 'published' });
  await create('ben', 'person', { name: 'Ben', _status: 'published' });
  await create('cat', 'person', { name: 'Cat' }); // a draft: anonymous readers do not see her
  await create('gone', 'person', { name: 'Gone', _status: 'published' });
  await create('memo', 'note', { text: 'internal', _status: 'published' }); // a type anonymous readers never see
  await create('a1', 'article', {
    title: 'One',
    author: ids.ann,
    reviewers: [ids.ben, ids.cat, ids.ann],
    credits: { editor: ids.ben },
    note: ids.memo,
    _status: 'published',
  });
  await create('a2', 'article', { title: 'Two', author: ids.cat, reviewers: [], seeAlso: ids.a1, _status: 'published' });
  await create('a3', 'article', { title: 'Three', author: ids.gone, credits: {}, seeAlso: ids.ann, _status: 'published' });
  const res = await t.request({ method: 'DELETE', url: `/api/documents/person/${ids.gone}?force=true`, token: admin });
  expect(res.statusCode, res.body).toBe(200);
});

const EXPAND = 'author,reviewers,credits.editor,note,seeAlso,seeAlso.author';
const name = (v: unknown) =>
  typeof v === 'object' && v !== null ? ((v as { name?: string; title?: string }).name ?? (v as { title: string }).title) : v;

async function list(token?: string) {
  const res = await t.request({ method: 'GET', url: `/api/documents/article?orderBy=_createdAt&order=asc&expand=${EXPAND}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Array<JsonObject>; meta: { total: number } };
}

describe('expansion in lists', () => {
  it('references, lists of references and references inside objects are expanded for a caller who may read them', async () => {
    const { data, meta } = await list(admin);
    expect(meta.total).toBe(3);
    expect(data.map((d) => d.title)).toEqual(['One', 'Two', 'Three']);
    expect(name(data[0].author)).toBe('Ann');
    expect(data[0].reviewers.map(name)).toEqual(['Ben', 'Cat', 'Ann']);
    expect(name(data[0].credits.editor)).toBe('Ben');
    expect(data[0].note).toMatchObject({ _id: ids.memo, text: 'internal' });
    expect(name(data[1].author)).toBe('Cat');
    expect(data[1].reviewers).toEqual([]);
    // A reference that may point at several types, and the level below it.
    expect(data[1].seeAlso).toMatchObject({ _id: ids.a1, title: 'One' });
    expect(name(data[1].seeAlso.author)).toBe('Ann');
    expect(data[2].seeAlso).toMatchObject({ _id: ids.ann, _type: 'person', name: 'Ann' });
  });

  it('a dangling reference stays the id', async () => {
    const { data } = await list(admin);
    expect(data[2].author).toBe(ids.gone);
    expect(data[2].credits).toEqual({});
  });

  it('targets the caller may not read stay ids: drafts and closed types, for anonymous readers', async () => {
    const { data } = await list();
    expect(name(data[0].author)).toBe('Ann');
    expect(data[0].reviewers.map(name)).toEqual(['Ben', ids.cat, 'Ann']);
    expect(data[0].note).toBe(ids.memo);
    expect(data[1].author).toBe(ids.cat);
    expect(name(data[1].seeAlso.author)).toBe('Ann');
  });

  it('each listed document equals the same document read alone with the same expansion', async () => {
    for (const token of [admin, undefined]) {
      const { data } = await list(token);
      for (const doc of data) {
        const one = await t.request({ method: 'GET', url: `/api/documents/article/${doc._id}?expand=${EXPAND}`, token });
        expect(one.statusCode, one.body).toBe(200);
        expect(doc).toEqual(one.json().data);
      }
    }
  });

  it('every path of a level is read by one query, whatever the number of documents and paths', async () => {
    await create('a4', 'article', { title: 'Four', author: ids.ann, seeAlso: ids.a1 });
    const statements: string[] = [];
    const restore = spyQueries(t, (sql) => void statements.push(sql));
    try {
      const { data, meta } = await list(admin);
      expect(meta.total).toBe(4);
      expect(name(data[3].seeAlso.author)).toBe('Ann');
    } finally {
      restore();
    }
    // The page, level 1 (author, reviewers, credits.editor, note, seeAlso), level 2 (seeAlso.author);
    // the total reads document_counts, not documents.
    const documentReads = statements.filter((s) => /\bdocuments\b/.test(s));
    expect(documentReads, documentReads.join('\n\n')).toHaveLength(3);
  });
});
