import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VellumClient } from '../../packages/client/src/index.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { postDocument } from '../helpers/post-document.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * The typed client's iteration walks by cursor (docs/client.md, "The query builder"): the first
 * page from the query's `offset`, each next one `after` the last `meta.nextCursor`, so documents
 * written during the walk neither repeat nor push an original out of it.
 */

interface Post {
  title: string;
  price?: number;
}

let t: TestApp;
let admin: string;
let baseUrl: string;

beforeAll(async () => {
  t = await startTestApp({ schemas: TEST_SCHEMAS });
  admin = await t.login(ADMIN.username, ADMIN.password);
  await t.app.server.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.server.address() as AddressInfo).port}/api`;
  for (let i = 0; i < 24; i++) {
    await postDocument(t, admin, 'post', { title: `Item ${String(i).padStart(2, '0')}`, ...(i % 4 ? { price: i % 6 } : {}) });
  }
});
afterAll(() => t?.close());

/** A client whose list requests are recorded (their query strings), optionally answering as a server without cursors. */
function recordingClient(opts: { withoutCursors?: boolean } = {}) {
  const lists: URLSearchParams[] = [];
  const spy: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const isList = url.pathname === '/api/documents/post' && (init?.method ?? 'GET') === 'GET';
    if (isList) lists.push(url.searchParams);
    const res = await fetch(input, init);
    if (!isList || !opts.withoutCursors) return res;
    const body = (await res.json()) as { meta: Record<string, unknown> };
    delete body.meta.nextCursor;
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(body), { status: res.status, headers });
  };
  return { lists, client: new VellumClient({ baseUrl, token: admin, fetch: spy }) };
}

async function allIds(query: string): Promise<string[]> {
  const res = await t.request({ method: 'GET', url: `/api/documents/post?limit=100&${query}`, token: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.map((d: { _id: string }) => d._id);
}

let n = 0;
const insert = (title: string) => postDocument(t, admin, 'post', { title: `${title} ${String(++n).padStart(4, '0')}` });

describe('iterating a query', () => {
  it('sends after= from meta.nextCursor and yields every original once while documents are inserted', async () => {
    const originals = await allIds('orderBy=title&order=asc');
    const { client, lists } = recordingClient();
    const seen: string[] = [];
    const early = new Set<string>();
    const late: Array<{ id: string; requests: number }> = [];
    for await (const doc of client.documents<Post>('post').query().orderBy('title', 'asc').limit(5)) {
      seen.push(doc._id);
      if (seen.length % 3 === 0) {
        // One sorting before the position ("A…" < "Item…"), one after it ("Z…").
        early.add((await insert('A early'))._id);
        late.push({ id: (await insert('Z late'))._id, requests: lists.length });
      }
    }
    expect(new Set(seen).size).toBe(seen.length);
    const inserted = new Set([...early, ...late.map((l) => l.id)]);
    expect(seen.filter((id) => !inserted.has(id))).toEqual(originals);
    // No "A early" one is reached; every "Z late" one is, unless written after the last page was read.
    expect(seen.filter((id) => early.has(id))).toEqual([]);
    expect(seen.filter((id) => inserted.has(id))).toEqual(late.filter((l) => l.requests < lists.length).map((l) => l.id));
    expect(late.filter((l) => l.requests < lists.length).length).toBeGreaterThan(2);

    expect(lists.length).toBe(Math.ceil(seen.length / 5));
    expect(lists[0].has('after')).toBe(false);
    for (const params of lists.slice(1)) {
      expect(params.get('after')).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(params.has('offset')).toBe(false);
      expect(params.get('limit')).toBe('5');
      expect(params.get('orderBy')).toBe('title');
    }
  });

  it('starts from the query offset, then goes on by cursor (all())', async () => {
    const originals = await allIds('orderBy=price&order=desc');
    const { client, lists } = recordingClient();
    const docs = await client.documents<Post>('post').query().orderBy('price', 'desc').offset(4).limit(6).all();
    expect(docs.map((d) => d._id)).toEqual(originals.slice(4));
    expect(lists[0].get('offset')).toBe('4');
    expect(lists.slice(1).every((p) => p.has('after') && !p.has('offset'))).toBe(true);
    expect(lists.length).toBeGreaterThan(2);
  });

  it('stops on nextCursor null: a list that fills its pages exactly costs no extra request', async () => {
    const originals = await allIds('filter[title][startsWith]=Item&orderBy=title&order=asc');
    expect(originals.length).toBe(24);
    const { client, lists } = recordingClient();
    const docs = await client.documents<Post>('post').query().where('title', 'startsWith', 'Item').orderBy('title', 'asc').limit(12).all();
    expect(docs.map((d) => d._id)).toEqual(originals);
    expect(lists.length).toBe(2);
  });

  it('after(cursor) fetches the page after a meta.nextCursor', async () => {
    const originals = await allIds('orderBy=title&order=asc');
    const { client } = recordingClient();
    const query = client.documents<Post>('post').query().orderBy('title', 'asc').limit(4);
    const first = await query.page();
    expect(typeof first.meta.nextCursor).toBe('string');
    const second = await query.after(first.meta.nextCursor!).page();
    expect(second.data.map((d) => d._id)).toEqual(originals.slice(4, 8));
    expect(second.meta.offset).toBe(0);
  });

  it('orderBy with { natural: true } sends natural=true and walks the natural order by cursor', async () => {
    const originals = await allIds('orderBy=title&order=desc&natural=true');
    const { client, lists } = recordingClient();
    const docs = await client.documents<Post>('post').query().orderBy('-title', { natural: true }).limit(10).all();
    expect(docs.map((d) => d._id)).toEqual(originals);
    expect(lists.every((p) => p.get('natural') === 'true' && p.get('order') === 'desc')).toBe(true);
    // A later orderBy without it orders as stored text again.
    const plain = client.documents<Post>('post').query().orderBy('title', 'asc', { natural: true }).orderBy('title', 'asc');
    await plain.page();
    expect(lists.at(-1)?.has('natural')).toBe(false);
  });

  it('walks by offset against a server that sends no nextCursor', async () => {
    const originals = await allIds('orderBy=title&order=asc');
    const { client, lists } = recordingClient({ withoutCursors: true });
    const docs = await client.documents<Post>('post').query().orderBy('title', 'asc').limit(10).all();
    expect(docs.map((d) => d._id)).toEqual(originals);
    expect(lists.map((p) => p.get('offset') ?? '0')).toEqual(
      Array.from({ length: Math.ceil(originals.length / 10) }, (_, i) => String(i * 10)),
    );
    expect(lists.some((p) => p.has('after'))).toBe(false);
  });
});
