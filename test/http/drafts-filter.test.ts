import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { createUser } from '../helpers/create-user.js';
import { postDocument } from '../helpers/post-document.js';
import { useContentApp } from '../helpers/use-content-app.js';

/** `filter[_draft][exists]` under `perspective=drafts` (docs/drafts.md, "Reading"): documents with a pending draft. */
let t: TestApp;
let admin: string;

useContentApp((app, token) => {
  t = app;
  admin = token;
});

const published = (title: string) => postDocument(t, admin, 'post', { title, _status: 'published', tags: ['pending'] });
const list = (query: string, token: string | null = admin) =>
  t.request({ method: 'GET', url: `/api/collections/post?filter[tags]=pending&${query}`, token: token ?? undefined });
const titles = (res: { json(): { data: Array<{ title: string }> } }) => res.json().data.map((d) => d.title);
const draftWrite = (id: string, title: string, token = admin) =>
  t.request({ method: 'PATCH', url: `/api/documents/post/${id}?draft=true`, token, payload: { title } });

describe('documents with a pending draft', () => {
  let changed: string;
  let editorId: string;

  it('true: only the published documents with a pending draft, served as their drafts; false: the others', async () => {
    changed = (await published('Alpha live'))._id as string;
    await published('Beta live');
    await postDocument(t, admin, 'post', { title: 'Gamma unpublished', tags: ['pending'] });
    expect((await draftWrite(changed, 'Alpha pending')).statusCode).toBe(200);

    const pending = await list('perspective=drafts&filter[_draft][exists]=true');
    expect(pending.statusCode, pending.body).toBe(200);
    expect(titles(pending)).toEqual(['Alpha pending']);
    expect(pending.json().data[0]).toMatchObject({ _version: 'draft', _status: 'published' });
    expect(pending.json().meta).toMatchObject({ total: 1 });
    expect(pending.json().meta.totalExact).toBeUndefined();

    const others = await list('perspective=drafts&filter[_draft][exists]=false&orderBy=title&order=asc');
    expect(titles(others)).toEqual(['Beta live', 'Gamma unpublished']);
    expect(others.json().meta).toMatchObject({ total: 2 });
  });

  it('combines with the other filters and orders: the draft’s author, newest first, by cursor', async () => {
    await createUser(t, admin, { username: 'pendingeditor', password: 'correct horse battery', role: 'editor' });
    const editor = await t.login('pendingeditor', 'correct horse battery');
    editorId = (await t.request({ method: 'GET', url: '/api/auth/me', token: editor })).json().data.id as string;
    const beta = (await list('perspective=drafts&filter[title]=Beta live')).json().data[0]._id as string;
    expect((await draftWrite(beta, 'Beta pending', editor)).statusCode).toBe(200);

    const all = await list('perspective=drafts&filter[_draft][exists]=true&orderBy=_updatedAt&order=desc');
    expect(titles(all)).toEqual(['Beta pending', 'Alpha pending']);
    const theirs = await list(`perspective=drafts&filter[_draft][exists]=true&filter[_updatedBy]=${editorId}`);
    expect(titles(theirs)).toEqual(['Beta pending']);
    const notTheirs = await list(`perspective=drafts&filter[_draft][exists]=true&filter[_updatedBy][ne]=${editorId}`);
    expect(titles(notTheirs)).toEqual(['Alpha pending']);

    const first = await list('perspective=drafts&filter[_draft][exists]=true&orderBy=_updatedAt&order=desc&limit=1');
    expect(titles(first)).toEqual(['Beta pending']);
    const cursor = first.json().meta.nextCursor as string;
    const second = await list(
      `perspective=drafts&filter[_draft][exists]=true&orderBy=_updatedAt&order=desc&limit=1&after=${encodeURIComponent(cursor)}`,
    );
    expect(titles(second)).toEqual(['Alpha pending']);
    expect(second.json().meta.nextCursor).toBeNull();
  });

  it('follows publishing and discarding (the answer is not a stale cached one)', async () => {
    expect((await t.request({ method: 'POST', url: `/api/documents/post/${changed}/publish`, token: admin })).statusCode).toBe(200);
    const afterPublish = await list('perspective=drafts&filter[_draft][exists]=true');
    expect(titles(afterPublish)).toEqual(['Beta pending']);
    expect(afterPublish.json().meta).toMatchObject({ total: 1 });
    const beta = afterPublish.json().data[0]._id as string;
    expect((await t.request({ method: 'DELETE', url: `/api/documents/post/${beta}/draft`, token: admin })).statusCode).toBe(200);
    const none = await list('perspective=drafts&filter[_draft][exists]=true');
    expect(none.json()).toMatchObject({ data: [], meta: { total: 0 } });
  });

  it('needs perspective=drafts (400) and read permission (anonymous 401); exists only', async () => {
    const without = await list('filter[_draft][exists]=true');
    expect(without.statusCode).toBe(400);
    expect(without.json().error.details[0]).toMatchObject({ field: 'filter[_draft][exists]', message: 'needs perspective=drafts' });
    expect((await list('filter[_draft]=true&perspective=drafts')).statusCode).toBe(400);
    expect((await list('filter[_draft][exists]=maybe&perspective=drafts')).statusCode).toBe(400);
    const anonymous = await t.request({ method: 'GET', url: '/api/documents/post?perspective=drafts&filter[_draft][exists]=true' });
    expect(anonymous.statusCode).toBe(401);
  });
});
